/**
 * The shipping demo's large data: the account's shipment history (2 000 parcels in 2026) and a
 * customs guide per destination (about a thousand tariff headings each). Questions about them
 * need a handful of fields out of a large result, which is where code mode keeps the data out
 * of the model's context and classic tool calling pays for all of it (docs/evals.md, "Where code
 * mode wins: large results"). Pure and fixed: generated from seeded random numbers, so every run sees the same
 * records and every question has one answer.
 */
import { seededRandom, seedOf } from "../random/seeded";
import { CARRIER_IDS, COUNTRIES, COUNTRY_CODES, estimate, quote, type CarrierId, type CountryCode, type Currency } from "./shipping-rates";

/** One parcel the account sent. */
export interface Shipment {
  id: string;
  /** ISO date the carrier picked it up. */
  shippedOn: string;
  carrier: CarrierId;
  origin: CountryCode;
  destination: CountryCode;
  weightKg: number;
  /** Base price paid, in `currency`. */
  price: number;
  currency: Currency;
  /** The carrier's guaranteed window, in business days. */
  promisedBusinessDays: number;
  /** Business days it took; null while in transit. */
  deliveredBusinessDays: number | null;
  status: "delivered" | "in_transit";
  /** The order it belongs to. */
  reference: string;
}

/** The year the history covers. */
export const HISTORY_YEAR = 2026;
/** Parcels in the history. */
export const HISTORY_SIZE = 2_000;

const pick = <T>(items: readonly T[], r: () => number): T => items[Math.floor(r() * items.length)]!;

const ORIGINS: readonly CountryCode[] = ["DE", "DE", "DE", "DE", "FR", "NL"];
/** CargoLine's freight network misses its window far more often than the others. */
const LATE_RATE: Record<CarrierId, number> = { postal: 0.004, parcelnet: 0.003, swiftair: 0.002, cargoline: 0.03, eurodash: 0.004 };

let history: readonly Shipment[] | undefined;

/** The account's shipments of a year, oldest first (only HISTORY_YEAR has any). */
export function shipmentHistory(year: number = HISTORY_YEAR): readonly Shipment[] {
  if (year !== HISTORY_YEAR) return [];
  if (history) return history;
  const r = seededRandom(seedOf("shipments-2026"));
  const start = Date.UTC(HISTORY_YEAR, 0, 2);
  // Up to the 20th of November; the last fortnight's parcels are still travelling.
  const span = Date.UTC(HISTORY_YEAR, 10, 20) - start;
  const inTransitFrom = Date.UTC(HISTORY_YEAR, 10, 6);
  const days = Array.from({ length: HISTORY_SIZE }, () => Math.floor(r() * (span / 86_400_000))).sort((a, b) => a - b);
  history = days.map((day, i) => {
    const shipped = start + day * 86_400_000;
    const origin = pick(ORIGINS, r);
    let destination = pick(COUNTRY_CODES, r);
    if (destination === origin) destination = "US";
    const weightKg = Math.round((r() < 0.9 ? 0.3 + r() * 12 : 20 + r() * 180) * 10) / 10;
    let carrier = pick(CARRIER_IDS, r);
    let priced = quote(carrier, origin, destination, weightKg);
    if ("error" in priced) {
      carrier = "cargoline";
      priced = quote(carrier, origin, destination, weightKg);
    }
    const window = estimate(carrier, origin, destination);
    const roll = r();
    const delivered =
      roll < LATE_RATE[carrier]
        ? window.maxBusinessDays + 4 + Math.floor(r() * 6)
        : roll < 0.08
          ? window.maxBusinessDays + 1 + Math.floor(r() * 3)
          : window.minBusinessDays + Math.floor(r() * (window.maxBusinessDays - window.minBusinessDays + 1));
    const travelling = shipped >= inTransitFrom && r() < 0.7;
    return {
      id: `SHP-26-${String(i + 1).padStart(4, "0")}`,
      shippedOn: new Date(shipped).toISOString().slice(0, 10),
      carrier,
      origin,
      destination,
      weightKg,
      price: "error" in priced ? 0 : priced.price,
      currency: "error" in priced ? "EUR" : priced.currency,
      promisedBusinessDays: window.maxBusinessDays,
      deliveredBusinessDays: travelling ? null : delivered,
      status: travelling ? "in_transit" : "delivered",
      reference: `PO-${String(40_000 + Math.floor(r() * 60_000))}`,
    };
  });
  return history;
}

/** One line of a destination's tariff. */
export interface TariffLine {
  /** Harmonized System heading, four digits. */
  heading: string;
  description: string;
  /** What kind of goods, in plain words (electronics, clothing ...). */
  category: string;
  dutyPercent: number;
}

/** Everything a shipper needs to know to send goods into a country. */
export interface CustomsGuide {
  destination: CountryCode;
  country: string;
  updatedOn: string;
  /** Import VAT (or GST) on the goods' value plus duty. */
  vatPercent: number;
  /** Values (EUR) under which no duty, or no VAT, is charged. */
  deMinimis: { dutyFreeUpToEur: number; vatFreeUpToEur: number };
  requiredDocuments: string[];
  prohibitedItems: string[];
  restrictedItems: Array<{ item: string; rule: string }>;
  tariff: TariffLine[];
  notes: string[];
}

// HS chapters the tariff lists, with the headings shippers ask about named.
const CHAPTERS: ReadonlyArray<{ chapter: number; title: string; category: string; named?: Record<number, string> }> = [
  { chapter: 4, title: "Dairy produce; eggs; natural honey", category: "food" },
  { chapter: 9, title: "Coffee, tea, maté and spices", category: "food", named: { 901: "Coffee, roasted or not" } },
  { chapter: 18, title: "Cocoa and cocoa preparations", category: "food", named: { 1806: "Chocolate and other food preparations containing cocoa" } },
  { chapter: 22, title: "Beverages, spirits and vinegar", category: "food" },
  { chapter: 30, title: "Pharmaceutical products", category: "medicine" },
  {
    chapter: 33,
    title: "Essential oils; perfumery, cosmetic or toilet preparations",
    category: "cosmetics",
    named: { 3304: "Beauty or make-up preparations" },
  },
  { chapter: 39, title: "Plastics and articles thereof", category: "other" },
  { chapter: 42, title: "Articles of leather; handbags and travel goods", category: "clothing" },
  { chapter: 49, title: "Printed books, newspapers and pictures", category: "books", named: { 4901: "Printed books, brochures and leaflets" } },
  { chapter: 61, title: "Apparel, knitted or crocheted", category: "clothing", named: { 6109: "T-shirts, singlets and vests, knitted" } },
  { chapter: 62, title: "Apparel, not knitted or crocheted", category: "clothing" },
  { chapter: 64, title: "Footwear, gaiters and the like", category: "clothing" },
  { chapter: 69, title: "Ceramic products", category: "other" },
  { chapter: 71, title: "Pearls, precious stones and metals; jewellery", category: "jewellery", named: { 7113: "Articles of jewellery and parts thereof" } },
  { chapter: 73, title: "Articles of iron or steel", category: "machinery" },
  { chapter: 82, title: "Tools and cutlery of base metal", category: "machinery" },
  {
    chapter: 84,
    title: "Machinery and mechanical appliances",
    category: "machinery",
    named: { 8471: "Automatic data-processing machines: computers and laptops" },
  },
  {
    chapter: 85,
    title: "Electrical machinery and equipment",
    category: "electronics",
    named: {
      8517: "Telephone sets, including smartphones",
      8518: "Microphones, loudspeakers and headphones",
      8528: "Monitors, projectors and television receivers",
    },
  },
  { chapter: 87, title: "Vehicles and their parts", category: "machinery" },
  { chapter: 90, title: "Optical, photographic, measuring and medical instruments", category: "electronics" },
  { chapter: 91, title: "Clocks and watches", category: "jewellery" },
  { chapter: 94, title: "Furniture; bedding; lamps", category: "furniture" },
  { chapter: 95, title: "Toys, games and sports requisites", category: "toys", named: { 9503: "Toys: dolls, puzzles, models" } },
  { chapter: 96, title: "Miscellaneous manufactured articles", category: "other" },
];

const FORMS = ["parts and accessories", "other than the above", "for industrial use", "for retail sale", "used or second-hand", "in kits or sets"];

const VAT: Partial<Record<CountryCode, number>> = { BR: 17, JP: 10, US: 0, CA: 5, AU: 10, CH: 8.1, GB: 20, IN: 18, CN: 13, SG: 9, MX: 16, ZA: 15 };

/** The customs guide of a destination: about a thousand tariff lines, and the rules around them. */
export function customsGuide(destination: CountryCode): CustomsGuide {
  const r = seededRandom(seedOf(`customs-${destination}`));
  const europe = COUNTRIES[destination].region === "europe" && destination !== "GB" && destination !== "CH";
  const tariff: TariffLine[] = CHAPTERS.flatMap(({ chapter, title, category, named = {} }) =>
    Array.from({ length: 42 }, (_, i) => {
      const code = chapter * 100 + i + 1;
      const heading = String(code).padStart(4, "0");
      const description = named[code] ?? `${title}: heading ${heading}, ${FORMS[i % FORMS.length]}`;
      const dutyPercent = europe ? 0 : Math.round(r() * (category === "electronics" ? 16 : 35) * 2) / 2;
      return { heading, description, category, dutyPercent };
    }),
  );
  return {
    destination,
    country: COUNTRIES[destination].name,
    updatedOn: "2026-09-01",
    vatPercent: europe ? 0 : (VAT[destination] ?? 12),
    // Inside the EU customs union nothing is charged whatever the value: rates are 0.
    deMinimis: europe
      ? { dutyFreeUpToEur: 0, vatFreeUpToEur: 0 }
      : { dutyFreeUpToEur: destination === "US" ? 750 : 50, vatFreeUpToEur: destination === "US" ? 750 : 0 },
    requiredDocuments: europe
      ? ["Commercial invoice"]
      : [
          "Commercial invoice (three copies)",
          "CN23 customs declaration",
          "Packing list",
          ...(destination === "BR" ? ["CPF or CNPJ tax number of the receiver"] : []),
          ...(destination === "IN" ? ["IEC code of the importer"] : []),
        ],
    prohibitedItems: [
      "Counterfeit goods",
      "Narcotics",
      "Weapons and ammunition",
      "Live animals",
      "Currency and bearer bonds",
      "Radioactive material",
      "Lithium batteries shipped loose",
      "Perishable food without a permit",
    ],
    restrictedItems: [
      { item: "Lithium batteries inside equipment", rule: "At most two batteries per parcel, installed in the device, UN3481 label on the box." },
      { item: "Cosmetics", rule: "Retail packaging with the ingredient list in the local language." },
      { item: "Medicines", rule: "Prescription copy and at most a three-month supply." },
      { item: "Food", rule: "Sealed commercial packaging, best-before date at least three months away." },
    ],
    tariff,
    notes: Array.from(
      { length: 12 },
      (_, i) =>
        `Note ${i + 1}: duty is charged on the customs value of the goods (their price plus shipping and insurance to the border) at the rate of their tariff heading; import VAT is charged on the customs value plus duty. Parcels held for missing documents are returned after 30 days at the sender's cost.`,
    ),
  };
}
