/** The demo model's programs and summaries for the store server's example prompts. */
import type { DemoScript } from "./demo-script";
import { examplePrompt } from "./demo-script";
import { bullets, excerpt, list, money, num, rec, str } from "./demo-format";

const orderMargheritas = `// Menus of every open pizza place at once; the best-rated one that has margherita wins.
const { stores } = await store.search_stores({ cuisine: "pizza", near: "Kreuzberg", openOnly: true });
const ranked = [...stores].sort((a, b) => b.rating - a.rating);
const menus = await Promise.all(ranked.map((s) => store.get_menu({ storeId: s.id })));
const passedOver = [];
let chosen = null;
for (let i = 0; i < ranked.length && !chosen; i++) {
  const dish = menus[i].items.find((d) => /margherita/i.test(d.name) && d.available);
  if (dish) chosen = { place: ranked[i], dish };
  else passedOver.push(ranked[i].name + " (" + ranked[i].rating + ") has no margherita");
}
if (!chosen) throw new Error("No open pizza place near Kreuzberg has margherita: " + passedOver.join("; "));
const cart = await store.create_cart({ storeId: chosen.place.id });
await store.add_to_cart({ cartId: cart.cartId, itemId: chosen.dish.id, quantity: 2 });
const check = await store.validate_order({ cartId: cart.cartId });
if (!check.valid) return { store: chosen.place.name, placed: false, problems: check.problems, passedOver };
const order = await store.place_order({ cartId: cart.cartId, deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" });
return {
  store: chosen.place.name, rating: chosen.place.rating, placed: true, orderId: order.orderId,
  total: order.total, currency: order.currency, etaMinutes: order.etaMinutes, passedOver,
};`;

const vegetarianFastest = `const { stores } = await store.search_stores({ near: "Friedrichshain", openOnly: true });
const menus = await Promise.all(stores.map((s) => store.get_menu({ storeId: s.id })));
return stores
  .map((s, i) => ({
    name: s.name, cuisine: s.cuisine, etaMinutes: s.etaMinutes, distanceKm: s.distanceKm,
    minimumOrder: s.minimumOrder, deliveryFee: s.deliveryFee,
    vegetarianDishes: menus[i].items.filter((d) => d.vegetarian && d.available).map((d) => d.name),
  }))
  .filter((s) => s.vegetarianDishes.length > 0 && s.minimumOrder <= 20)
  .sort((a, b) => a.etaMinutes - b.etaMinutes || a.distanceKm - b.distanceKm)
  .slice(0, 5);`;

const cheapestKaiten = `const { stores } = await store.search_stores({ cuisine: "sushi", near: "Prenzlauer Berg" });
const kaiten = stores.find((s) => /kaiten/i.test(s.name));
if (!kaiten) throw new Error("Kaiten Sushi Bar is not in the search results");
const menu = await store.get_menu({ storeId: kaiten.id });
const dishes = menu.items.filter((d) => d.available).map((d) => ({ id: d.id, name: d.name, cents: Math.round(d.price * 100) }));
// Cheapest basket whose subtotal reaches the minimum order: a small knapsack over cents.
const target = Math.round(kaiten.minimumOrder * 100);
const limit = target + Math.max(...dishes.map((d) => d.cents));
const basket = new Array(limit + 1).fill(null);
basket[0] = [];
for (let c = 1; c <= limit; c++) {
  for (const d of dishes) {
    if (d.cents <= c && basket[c - d.cents] && !basket[c]) basket[c] = [...basket[c - d.cents], d.id];
  }
}
let best = target;
while (!basket[best]) best++;
const counts: Record<string, number> = {};
for (const id of basket[best]) counts[id] = (counts[id] ?? 0) + 1;
const cart = await store.create_cart({ storeId: kaiten.id });
await Promise.all(Object.entries(counts).map(([itemId, quantity]) => store.add_to_cart({ cartId: cart.cartId, itemId, quantity })));
const check = await store.validate_order({ cartId: cart.cartId });
return {
  store: kaiten.name, minimumOrder: kaiten.minimumOrder, valid: check.valid, problems: check.problems,
  items: Object.entries(counts).map(([id, quantity]) => ({ name: dishes.find((d) => d.id === id).name, quantity })),
  subtotal: check.subtotal, deliveryFee: check.deliveryFee, total: check.total, currency: check.currency,
};`;

/** Scripts for the store example prompts, in catalog order. */
export const STORE_SCRIPTS: readonly DemoScript[] = [
  {
    server: "store",
    prompt: examplePrompt("store", 0),
    intro:
      "I'll find the open pizza places, read their menus in parallel, and order from the best-rated one that actually has margherita. This places a real (demo) order: with step mode on you can check the code first.",
    searchQuery: "search stores menu cart place order",
    code: orderMargheritas,
    summarise(value) {
      const v = rec(value);
      const skipped = list(v.passedOver).map((s) => `- ${str(s)}`);
      const note = skipped.length > 0 ? `\n\nPassed over:\n${skipped.join("\n")}` : "";
      if (v.placed !== true)
        return `I could not place the order at ${str(v.store, "the store")}: ${
          list(v.problems)
            .map((p) => str(p))
            .join("; ") || "unknown problem"
        }.${note}`;
      return `Ordered two margheritas from **${str(v.store)}** (rated ${str(v.rating)}), paid by card to Oranienstraße 25: order **${str(v.orderId)}**, **${money(v.total, v.currency)}**, arriving in about ${str(v.etaMinutes)} minutes.${note}`;
    },
  },
  {
    server: "store",
    prompt: examplePrompt("store", 1),
    intro: "I'll list the open places near Friedrichshain, read all their menus in parallel, and keep those with vegetarian dishes that accept a 20 EUR order.",
    searchQuery: "search stores menu vegetarian",
    code: vegetarianFastest,
    summarise(value) {
      const rows = list(value).map(rec);
      const first = rows[0];
      if (!first) return "No open place near Friedrichshain has vegetarian dishes and accepts a 20 EUR order.";
      const body = bullets(
        rows.map((r) => [
          str(r.name),
          `about ${str(r.etaMinutes)} min`,
          str(r.cuisine),
          `${str(r.distanceKm)} km away`,
          `minimum ${money(r.minimumOrder, "EUR")}`,
          `vegetarian: ${list(r.vegetarianDishes)
            .map((d) => str(d))
            .join(", ")}`,
        ]),
      );
      return `Fastest for a 20 EUR vegetarian-friendly order near Friedrichshain: **${str(first.name)}**, about ${str(first.etaMinutes)} minutes.\n\n${body}`;
    },
  },
  {
    server: "store",
    prompt: examplePrompt("store", 2),
    intro: "I'll read Kaiten's menu, work out the cheapest basket that reaches its minimum order, fill a cart and validate it, without placing the order.",
    searchQuery: "menu cart validate order",
    code: cheapestKaiten,
    summarise(value) {
      const v = rec(value);
      if (num(v.total) === undefined) return `I could not price an order:\n\n${excerpt(value)}`;
      const items = list(v.items)
        .map((i) => `${str(rec(i).quantity)} × ${str(rec(i).name)}`)
        .join(", ");
      const validity =
        v.valid === true
          ? "The order validates"
          : `The order does not validate (${list(v.problems)
              .map((p) => str(p))
              .join("; ")})`;
      return `The cheapest valid order from **${str(v.store)}** is ${items}: subtotal ${money(v.subtotal, v.currency)} (minimum ${money(v.minimumOrder, v.currency)}) plus ${money(v.deliveryFee, v.currency)} delivery = **${money(v.total, v.currency)}**. ${validity}; nothing was ordered.`;
    },
  },
];
