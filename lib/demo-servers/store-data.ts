/**
 * The `store` demo's fixed data: Berlin neighbourhoods, restaurants and menus. Opening state
 * is fixed (not clock-based) so that results are repeatable: some stores are always closed,
 * which is what makes validate_order worth calling.
 */

/** Cuisines on offer. */
export const CUISINES = ["pizza", "sushi", "burgers", "thai", "indian", "vegan", "mexican", "vietnamese"] as const;
/** A cuisine. */
export type Cuisine = (typeof CUISINES)[number];

/** Neighbourhoods a customer can be "near", with their centre. */
export const PLACES: Record<string, { lat: number; lng: number }> = {
  Mitte: { lat: 52.52, lng: 13.405 },
  Kreuzberg: { lat: 52.4986, lng: 13.403 },
  Neukölln: { lat: 52.4811, lng: 13.4353 },
  "Prenzlauer Berg": { lat: 52.538, lng: 13.424 },
  Friedrichshain: { lat: 52.5156, lng: 13.454 },
  Charlottenburg: { lat: 52.516, lng: 13.304 },
};

/** One dish. */
export interface MenuItem {
  id: string;
  name: string;
  description: string;
  price: number;
  vegetarian: boolean;
  available: boolean;
}

/** One restaurant. */
export interface Store {
  id: string;
  name: string;
  cuisine: Cuisine;
  lat: number;
  lng: number;
  isOpen: boolean;
  opensAt?: string;
  rating: number;
  deliveryFee: number;
  minimumOrder: number;
  etaMinutes: number;
  menu: MenuItem[];
}

const dish = (id: string, name: string, description: string, price: number, vegetarian = false, available = true): MenuItem => ({
  id,
  name,
  description,
  price,
  vegetarian,
  available,
});

/** Every store. Prices in EUR. */
export const STORES: readonly Store[] = [
  {
    id: "forno-rosso",
    name: "Forno Rosso",
    cuisine: "pizza",
    lat: 52.5225,
    lng: 13.402,
    isOpen: true,
    rating: 4.6,
    deliveryFee: 2.5,
    minimumOrder: 15,
    etaMinutes: 30,
    menu: [
      dish("margherita", "Margherita", "Tomato, fior di latte, basil.", 9.5, true),
      dish("diavola", "Diavola", "Tomato, mozzarella, spicy salami.", 12),
      dish("funghi", "Funghi", "Mozzarella, mushrooms, thyme.", 11, true),
      dish("tiramisu", "Tiramisù", "Coffee and mascarpone dessert.", 6, true),
    ],
  },
  {
    id: "slice-of-kreuzberg",
    name: "Slice of Kreuzberg",
    cuisine: "pizza",
    lat: 52.499,
    lng: 13.418,
    isOpen: false,
    opensAt: "17:00",
    rating: 4.3,
    deliveryFee: 1.9,
    minimumOrder: 12,
    etaMinutes: 25,
    menu: [
      dish("cheese-slice", "Cheese slice", "New York style, by the slice.", 4, true),
      dish("pepperoni-pie", "Pepperoni pie", "Whole 18-inch pie.", 19),
      dish("garlic-knots", "Garlic knots", "Six knots with marinara.", 5.5, true),
    ],
  },
  {
    id: "pizzeria-nonna",
    name: "Pizzeria Nonna",
    cuisine: "pizza",
    lat: 52.478,
    lng: 13.44,
    isOpen: true,
    rating: 4.8,
    deliveryFee: 1.5,
    minimumOrder: 10,
    etaMinutes: 35,
    menu: [
      dish("marinara", "Marinara", "Tomato, garlic, oregano. Vegan.", 7.5, true),
      dish("quattro-formaggi", "Quattro formaggi", "Four cheeses.", 11.5, true),
      dish("salsiccia", "Salsiccia", "Fennel sausage, friarielli.", 13),
      dish("panna-cotta", "Panna cotta", "With berry sauce.", 5, true, false),
    ],
  },
  {
    id: "kaiten",
    name: "Kaiten Sushi Bar",
    cuisine: "sushi",
    lat: 52.539,
    lng: 13.421,
    isOpen: true,
    rating: 4.7,
    deliveryFee: 3.5,
    minimumOrder: 20,
    etaMinutes: 40,
    menu: [
      dish("salmon-nigiri", "Salmon nigiri", "Two pieces.", 5.5),
      dish("avocado-maki", "Avocado maki", "Six pieces.", 4.5, true),
      dish("dragon-roll", "Dragon roll", "Eel, cucumber, avocado. Eight pieces.", 14),
      dish("miso-soup", "Miso soup", "With tofu and wakame.", 3.5, true),
    ],
  },
  {
    id: "umi",
    name: "Umi Sushi",
    cuisine: "sushi",
    lat: 52.513,
    lng: 13.457,
    isOpen: true,
    rating: 4.4,
    deliveryFee: 2.9,
    minimumOrder: 18,
    etaMinutes: 35,
    menu: [
      dish("sashimi-mix", "Sashimi mix", "Twelve slices, chef's choice.", 19.5),
      dish("veggie-box", "Veggie box", "Inari, kappa and oshinko maki.", 12, true),
      dish("edamame", "Edamame", "With sea salt.", 4, true),
    ],
  },
  {
    id: "grill-brothers",
    name: "Grill Brothers",
    cuisine: "burgers",
    lat: 52.48,
    lng: 13.433,
    isOpen: true,
    rating: 4.2,
    deliveryFee: 1.9,
    minimumOrder: 12,
    etaMinutes: 25,
    menu: [
      dish("classic", "Classic burger", "Beef, cheddar, pickles.", 10.5),
      dish("bbq-bacon", "BBQ bacon burger", "Beef, bacon, smoked BBQ sauce.", 12.5),
      dish("halloumi", "Halloumi burger", "Grilled halloumi, chili jam.", 11, true),
      dish("fries", "Fries", "Hand-cut, rosemary salt.", 4, true),
    ],
  },
  {
    id: "baan-thai",
    name: "Baan Thai",
    cuisine: "thai",
    lat: 52.496,
    lng: 13.398,
    isOpen: true,
    rating: 4.5,
    deliveryFee: 2.2,
    minimumOrder: 15,
    etaMinutes: 35,
    menu: [
      dish("pad-thai", "Pad thai", "Rice noodles, tamarind, peanuts, egg.", 11.5),
      dish("green-curry", "Green curry", "Tofu or chicken, Thai basil, jasmine rice.", 12, true),
      dish("som-tam", "Som tam", "Green papaya salad. Spicy.", 8, true),
    ],
  },
  {
    id: "masala-house",
    name: "Masala House",
    cuisine: "indian",
    lat: 52.515,
    lng: 13.308,
    isOpen: false,
    opensAt: "11:30",
    rating: 4.4,
    deliveryFee: 2.5,
    minimumOrder: 15,
    etaMinutes: 45,
    menu: [
      dish("butter-chicken", "Butter chicken", "Tomato and butter sauce, basmati.", 13.5),
      dish("chana-masala", "Chana masala", "Chickpea curry, basmati.", 10.5, true),
      dish("garlic-naan", "Garlic naan", "From the tandoor.", 3.5, true),
    ],
  },
  {
    id: "green-bowl",
    name: "Green Bowl",
    cuisine: "vegan",
    lat: 52.51,
    lng: 13.449,
    isOpen: true,
    rating: 4.6,
    deliveryFee: 2.0,
    minimumOrder: 12,
    etaMinutes: 30,
    menu: [
      dish("buddha-bowl", "Buddha bowl", "Quinoa, roasted vegetables, tahini.", 11.5, true),
      dish("tempeh-wrap", "Tempeh wrap", "Smoked tempeh, slaw, chipotle mayo.", 9.5, true),
      dish("cashew-cake", "Cashew cheesecake", "Raw, with mango.", 5.5, true),
    ],
  },
  {
    id: "taqueria-luz",
    name: "Taquería Luz",
    cuisine: "mexican",
    lat: 52.527,
    lng: 13.395,
    isOpen: true,
    rating: 4.5,
    deliveryFee: 2.9,
    minimumOrder: 15,
    etaMinutes: 30,
    menu: [
      dish("al-pastor", "Tacos al pastor", "Three tacos, pork, pineapple.", 10.5),
      dish("hongos", "Tacos de hongos", "Three tacos, mushrooms, salsa verde.", 9.5, true),
      dish("guacamole", "Guacamole and chips", "Made to order.", 6.5, true),
    ],
  },
  {
    id: "pho-hanoi",
    name: "Pho Hanoi 36",
    cuisine: "vietnamese",
    lat: 52.485,
    lng: 13.43,
    isOpen: true,
    rating: 4.3,
    deliveryFee: 1.9,
    minimumOrder: 12,
    etaMinutes: 30,
    menu: [
      dish("pho-bo", "Phở bò", "Beef noodle soup.", 12),
      dish("bun-chay", "Bún chay", "Rice noodles, tofu, herbs.", 10.5, true),
      dish("summer-rolls", "Summer rolls", "Two rolls, peanut dip.", 5.5, true),
    ],
  },
];

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/oe/g, "o").trim();

/** Finds a neighbourhood by name, ignoring case and accents ("neukolln", "Neukoelln"). */
export function findPlace(name: string): { name: string; lat: number; lng: number } | undefined {
  const wanted = fold(name);
  for (const [placeName, at] of Object.entries(PLACES)) {
    if (fold(placeName) === wanted) return { name: placeName, ...at };
  }
  return undefined;
}

/** Great-circle distance in km, rounded to 0.1 km. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)) * 10) / 10;
}

/** A store by id. */
export function findStore(id: string): Store | undefined {
  return STORES.find((s) => s.id === id);
}
