/**
 * The demo model's programs for questions over large results (the shipping server's shipment
 * history and customs guides): each reads a large result and returns a handful of fields, so
 * in code mode the data stays in the sandbox, and in classic mode all of it reaches the model.
 */
import type { DemoScript } from "./demo-script";
import { examplePrompt } from "./demo-script";
import { bullets, list, money, num, rec, str } from "./demo-format";

const lateShipments = `// The whole year's history stays in the sandbox; only the late parcels come back.
const { shipments } = await shipping.list_shipments({ year: 2026 });
const late = shipments
  .filter((s) => s.deliveredBusinessDays !== null && s.deliveredBusinessDays - s.promisedBusinessDays > 3)
  .map((s) => ({ id: s.id, carrier: s.carrier, route: s.origin + "→" + s.destination, shippedOn: s.shippedOn, daysLate: s.deliveredBusinessDays - s.promisedBusinessDays }));
const byCarrier = new Map();
for (const s of late) byCarrier.set(s.carrier, (byCarrier.get(s.carrier) ?? 0) + 1);
const [worst] = [...byCarrier].sort((a, b) => b[1] - a[1]);
return { shipments: shipments.length, late, lateByCarrier: Object.fromEntries(byCarrier), worst: worst ? { carrier: worst[0], late: worst[1] } : null };`;

const onTimeToJapan = `const { shipments } = await shipping.list_shipments({ year: 2026 });
const toJapan = shipments.filter((s) => s.destination === "JP" && s.deliveredBusinessDays !== null);
const byCarrier = new Map();
for (const s of toJapan) {
  const row = byCarrier.get(s.carrier) ?? { carrier: s.carrier, shipments: 0, onTime: 0 };
  row.shipments++;
  if (s.deliveredBusinessDays <= s.promisedBusinessDays) row.onTime++;
  byCarrier.set(s.carrier, row);
}
return [...byCarrier.values()]
  .map((r) => ({ ...r, onTimePercent: Math.round((1000 * r.onTime) / r.shipments) / 10 }))
  .sort((a, b) => b.onTimePercent - a.onTimePercent);`;

const smartphonesToBrazil = `// One field of a thousand tariff lines, and the rules around it.
const guide = await shipping.get_customs_guide({ destination: "BR" });
const line = guide.tariff.find((t) => t.heading === "8517");
const value = 900;
const duty = value > guide.deMinimis.dutyFreeUpToEur ? Math.round(value * line.dutyPercent) / 100 : 0;
const vat = value > guide.deMinimis.vatFreeUpToEur ? Math.round((value + duty) * guide.vatPercent) / 100 : 0;
return { heading: line.heading, description: line.description, dutyPercent: line.dutyPercent, duty, vatPercent: guide.vatPercent, vat, total: value + duty + vat, documents: guide.requiredDocuments };`;

/** The prompt of the third large-results task, which only the suite asks (the catalog lists two). */
export const ON_TIME_TO_JAPAN_PROMPT = "For each carrier, what share of our 2026 shipments to Japan arrived on time?";

/** Scripts over the shipping server's large results. */
export const LARGE_RESULT_SCRIPTS: readonly DemoScript[] = [
  {
    server: "shipping",
    prompt: examplePrompt("shipping", 3),
    intro: "I'll read the year's shipment history inside the sandbox and keep only the parcels more than 3 business days late, counted by carrier.",
    searchQuery: "shipments history delivered late",
    code: lateShipments,
    summarise(value) {
      const v = rec(value);
      const worst = rec(v.worst);
      const late = list(v.late).map(rec);
      if (worst.carrier === undefined) return `None of the ${str(v.shipments, "?")} shipments of 2026 arrived more than 3 business days late.`;
      const rows = bullets(late.map((s) => [str(s.id), `${str(s.carrier)} · ${str(s.route)}`, `shipped ${str(s.shippedOn)}`, `${str(s.daysLate)} days late`]));
      return `Of ${str(v.shipments, "?")} shipments in 2026, **${late.length}** arrived more than 3 business days late; **${str(worst.carrier)}** was late most often (${str(worst.late)} times).\n\n${rows}`;
    },
  },
  {
    server: "shipping",
    prompt: ON_TIME_TO_JAPAN_PROMPT,
    intro: "I'll read the year's history in the sandbox and count, per carrier, the delivered parcels to Japan that made their window.",
    searchQuery: "shipments history delivered",
    code: onTimeToJapan,
    summarise(value) {
      const rows = list(value).map(rec);
      if (rows.length === 0) return "No shipment to Japan was delivered in 2026.";
      const body = bullets(rows.map((r) => [str(r.carrier), `${str(r.onTimePercent)}% on time`, `${str(r.onTime)} of ${str(r.shipments)} parcels`]));
      return `On-time share of the 2026 shipments to Japan, best first: **${str(rows[0]!.carrier)}** leads with ${str(rows[0]!.onTimePercent)}%.\n\n${body}`;
    },
  },
  {
    server: "shipping",
    prompt: examplePrompt("shipping", 4),
    intro: "I'll read Brazil's customs guide in the sandbox and take only the smartphone heading, the VAT and de minimis rules, and the documents.",
    searchQuery: "customs guide duty vat documents",
    code: smartphonesToBrazil,
    summarise(value) {
      const v = rec(value);
      if (num(v.total) === undefined) return "The customs guide did not give me a duty rate for smartphones.";
      return `Smartphones are HS heading **${str(v.heading)}** (${str(v.description)}). On 900 EUR, Brazil charges **${money(v.duty, "EUR")}** duty (${str(v.dutyPercent)}%) and **${money(v.vat, "EUR")}** import VAT (${str(v.vatPercent)}% on value plus duty): **${money(v.total, "EUR")}** landed.\n\nThe parcel needs:\n${list(
        v.documents,
      )
        .map((d) => `- ${str(d)}`)
        .join("\n")}`;
    },
  },
];
