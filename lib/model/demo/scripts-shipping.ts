/** The demo model's programs and summaries for the shipping server's example prompts. */
import type { DemoScript } from "./demo-script";
import { examplePrompt } from "./demo-script";
import { bullets, excerpt, list, money, num, rec, str } from "./demo-format";

const cheapestWithin5Days = `// Quote and estimate every carrier at once: the calls do not depend on each other.
const { carriers } = await shipping.list_carriers();
const options = await Promise.all(carriers.map(async (c) => {
  try {
    const [quote, eta] = await Promise.all([
      shipping.get_quote({ carrier: c.id, origin: "DE", destination: "US", weightKg: 2 }),
      shipping.estimate_delivery({ carrier: c.id, origin: "DE", destination: "US" }),
    ]);
    return { carrier: c.name, price: quote.price, currency: quote.currency, maxDays: eta.maxBusinessDays };
  } catch (error) {
    return { carrier: c.name, error: error.message };
  }
}));
const inTime = options.filter((o) => o.maxDays !== undefined && o.maxDays <= 5).sort((a, b) => a.price - b.price);
return { cheapest: inTime[0] ?? null, options };`;

const boxToJapan = `const dimensionsCm = { length: 60, width: 40, height: 40 };
const { carriers } = await shipping.list_carriers();
const rows = await Promise.all(carriers.map(async (c) => {
  try {
    const quote = await shipping.get_quote({ carrier: c.id, origin: "FR", destination: "JP", weightKg: 8, dimensionsCm });
    const priced = await shipping.apply_surcharges({ carrier: c.id, price: quote.price, currency: quote.currency, dimensionsCm });
    return {
      carrier: c.name,
      billableWeightKg: quote.billableWeightKg,
      basePrice: quote.price,
      surcharges: priced.surcharges.map((s) => s.type + " " + s.amount),
      total: priced.total,
      currency: priced.currency,
    };
  } catch (error) {
    return { carrier: c.name, error: error.message };
  }
}));
return rows.sort((a, b) => (a.total ?? Infinity) - (b.total ?? Infinity));`;

const fastestHeavy = `const weightKg = 300;
const { carriers } = await shipping.list_carriers();
const options = await Promise.all(carriers.map(async (c) => {
  if (c.maxWeightKg < weightKg) return { carrier: c.name, skipped: "takes at most " + c.maxWeightKg + " kg" };
  try {
    const [quote, eta] = await Promise.all([
      shipping.get_quote({ carrier: c.id, origin: "NL", destination: "BR", weightKg }),
      shipping.estimate_delivery({ carrier: c.id, origin: "NL", destination: "BR" }),
    ]);
    const priced = await shipping.apply_surcharges({ carrier: c.id, price: quote.price, currency: quote.currency });
    return { carrier: c.name, minDays: eta.minBusinessDays, maxDays: eta.maxBusinessDays, total: priced.total, currency: priced.currency };
  } catch (error) {
    return { carrier: c.name, error: error.message };
  }
}));
const usable = options.filter((o) => o.total !== undefined)
  .sort((a, b) => a.maxDays - b.maxDays || a.minDays - b.minDays || a.total - b.total);
return { fastest: usable[0] ?? null, options };`;

function optionRows(options: unknown[]): string[][] {
  return options.map((o) => {
    const r = rec(o);
    if (r.error !== undefined || r.skipped !== undefined) return [str(r.carrier), str(r.error ?? r.skipped)];
    const days = r.minDays === undefined ? `≤ ${str(r.maxDays, "?")}` : `${str(r.minDays)}–${str(r.maxDays)}`;
    return [str(r.carrier), money(r.price ?? r.total, r.currency), `${days} business days`];
  });
}

/** Scripts for the shipping example prompts, in catalog order. */
export const SHIPPING_SCRIPTS: readonly DemoScript[] = [
  {
    server: "shipping",
    prompt: examplePrompt("shipping", 0),
    intro: "I'll quote every carrier and check its delivery window in parallel, then keep the ones that make it within 5 business days.",
    searchQuery: "carrier quote delivery estimate",
    code: cheapestWithin5Days,
    summarise(value) {
      const v = rec(value);
      const best = rec(v.cheapest);
      const rows = bullets(optionRows(list(v.options)));
      if (best.carrier === undefined) return `No carrier delivers 2 kg from DE to US within 5 business days.\n\n${rows}`;
      return `**${str(best.carrier)}** is the cheapest carrier that gets 2 kg from DE to US within 5 business days: **${money(best.price, best.currency)}** (at most ${str(best.maxDays)} business days).\n\n${rows}\n\nPrices are base prices before surcharges.`;
    },
  },
  {
    server: "shipping",
    prompt: examplePrompt("shipping", 1),
    intro: "I'll quote the box with its dimensions for every carrier (so volumetric weight counts), add each carrier's surcharges, and sort by total.",
    searchQuery: "quote surcharges dimensions",
    code: boxToJapan,
    summarise(value) {
      const rows = list(value).map(rec);
      const priced = rows.filter((r) => num(r.total) !== undefined);
      const best = priced[0];
      if (!best) return `No carrier could quote the box:\n\n${excerpt(value)}`;
      const body = bullets(
        rows.map((r) =>
          r.error !== undefined
            ? [str(r.carrier), str(r.error)]
            : [
                str(r.carrier),
                `${money(r.total, r.currency)} total`,
                `base ${money(r.basePrice, r.currency)}`,
                `surcharges: ${
                  list(r.surcharges)
                    .map((s) => str(s))
                    .join(", ") || "none"
                }`,
                `billed as ${str(r.billableWeightKg)} kg`,
              ],
        ),
      );
      return `Sending the 60×40×40 cm, 8 kg box from FR to JP costs least with **${str(best.carrier)}**: **${money(best.total, best.currency)}** all in.\n\n${body}`;
    },
  },
  {
    server: "shipping",
    prompt: examplePrompt("shipping", 2),
    intro: "300 kg rules out some carriers; I'll quote and time the others in parallel, add surcharges, and pick the shortest guaranteed delivery.",
    searchQuery: "carrier weight limit delivery estimate quote",
    code: fastestHeavy,
    summarise(value) {
      const v = rec(value);
      const best = rec(v.fastest);
      const rows = bullets(optionRows(list(v.options)));
      if (best.carrier === undefined) return `No carrier can take 300 kg from NL to BR.\n\n${rows}`;
      return `The fastest way to get 300 kg from NL to BR is **${str(best.carrier)}**: ${str(best.minDays)}–${str(best.maxDays)} business days for **${money(best.total, best.currency)}**, surcharges included.\n\n${rows}`;
    },
  },
];
