/**
 * The `shipping` demo MCP server: carriers, quotes, delivery estimates and surcharges, and two
 * tools with large results: the account's shipment history and a customs guide per country.
 * Deterministic; the rules live in shipping-rates.ts and the data in shipping-history.ts, this
 * file only declares the tools.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import * as z from "zod";
import { QUOTE_APP_HTML, QUOTE_APP_URI } from "./quote-app";
import { failure, ok, STATIC_LISTS } from "./result";
import { CARRIER_IDS, COUNTRIES, COUNTRY_CODES, estimate, listCarriers, quote, surcharges } from "./shipping-rates";
import { customsGuide, HISTORY_SIZE, HISTORY_YEAR, shipmentHistory } from "./shipping-history";

const carrier = z.enum(CARRIER_IDS).describe("Carrier id, as returned by list_carriers.");
const country = (role: string) => z.enum(COUNTRY_CODES).describe(`${role} country, ISO 3166-1 alpha-2 code such as "DE" or "US".`);
const currency = z.enum(["EUR", "USD", "GBP"]).describe("Currency of the amounts: GBP from GB, EUR from the rest of Europe, USD from elsewhere.");
const zone = z.enum(["domestic", "regional", "intercontinental"]).describe("Route zone: same country, same world region, or across regions.");
const dimensions = z
  .object({
    length: z.number().positive().max(400).describe("Length in centimetres."),
    width: z.number().positive().max(400).describe("Width in centimetres."),
    height: z.number().positive().max(400).describe("Height in centimetres."),
  })
  .describe("Parcel size in centimetres. Large light parcels are billed by volumetric weight (L×W×H / 5000).");
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** Builds a fresh `shipping` server. */
export function createShippingServer(): McpServer {
  const server = new McpServer(
    { name: "shipping", version: "1.0.0", title: "Shipping (demo)" },
    {
      instructions:
        "Fictional parcel carriers with fixed rates. Quote and estimate each carrier, then compare; prices exclude surcharges until apply_surcharges.",
      cacheHints: STATIC_LISTS,
    },
  );

  server.registerTool(
    "list_carriers",
    {
      title: "List carriers",
      description: "Lists every carrier with its weight limit and a short profile, and the countries served. Call this first to get carrier ids.",
      inputSchema: {},
      outputSchema: {
        carriers: z
          .array(
            z.object({
              id: carrier,
              name: z.string().describe("Display name."),
              description: z.string().describe("Price and speed profile of the carrier."),
              maxWeightKg: z.number().describe("Heaviest billable weight the carrier accepts, in kg."),
            }),
          )
          .describe("All carriers."),
        countries: z
          .array(
            z.object({
              code: z.string().describe("ISO 3166-1 alpha-2 code."),
              name: z.string().describe("Country name."),
              region: z.string().describe("World region used for zones."),
            }),
          )
          .describe("Countries every carrier serves."),
      },
      annotations: readOnly,
    },
    () => ok({ carriers: listCarriers(), countries: Object.entries(COUNTRIES).map(([code, c]) => ({ code, name: c.name, region: c.region })) }),
  );

  // The quote has an MCP App (quote-app.ts): hosts that render apps show it beside the result.
  registerAppTool(
    server,
    "get_quote",
    {
      _meta: { ui: { resourceUri: QUOTE_APP_URI } },
      title: "Get a price quote",
      description:
        "Quotes the base price of shipping one parcel with one carrier. Surcharges (fuel, remote area, oversize) are not included: pass the price to apply_surcharges. Fails if the parcel is over the carrier's weight limit.",
      inputSchema: {
        carrier,
        origin: country("Origin"),
        destination: country("Destination"),
        weightKg: z.number().positive().max(1000).describe("Actual weight in kilograms, e.g. 2.5."),
        dimensionsCm: dimensions.optional(),
      },
      outputSchema: {
        carrier,
        origin: z.string().describe("Origin country code."),
        destination: z.string().describe("Destination country code."),
        zone,
        billableWeightKg: z.number().describe("Weight charged: the larger of actual and volumetric weight, rounded up to 0.1 kg."),
        price: z.number().describe("Base price before surcharges, in `currency`."),
        currency,
      },
      annotations: readOnly,
    },
    ({ carrier: id, origin, destination, weightKg, dimensionsCm }) => {
      const q = quote(id, origin, destination, weightKg, dimensionsCm);
      return "error" in q ? failure(q.error) : ok({ ...q });
    },
  );

  registerAppResource(
    server,
    "Shipping quote",
    QUOTE_APP_URI,
    { description: "The quote of get_quote, with every carrier's price for the same parcel on request." },
    () => ({ contents: [{ uri: QUOTE_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: QUOTE_APP_HTML, _meta: { ui: { prefersBorder: false } } }] }),
  );

  server.registerTool(
    "estimate_delivery",
    {
      title: "Estimate delivery time",
      description: "Estimates how many business days a carrier needs for a route, as a minimum and a maximum. Use maxBusinessDays to check a deadline.",
      inputSchema: { carrier, origin: country("Origin"), destination: country("Destination") },
      outputSchema: {
        carrier,
        origin: z.string().describe("Origin country code."),
        destination: z.string().describe("Destination country code."),
        zone,
        minBusinessDays: z.number().int().min(0).max(60).describe("Fastest delivery, in business days."),
        maxBusinessDays: z.number().int().min(0).max(60).describe("Slowest delivery, in business days: the guaranteed window."),
      },
      annotations: readOnly,
    },
    ({ carrier: id, origin, destination }) => ok({ ...estimate(id, origin, destination) }),
  );

  server.registerTool(
    "apply_surcharges",
    {
      title: "Apply surcharges",
      description:
        "Adds the carrier's surcharges to a quoted base price: fuel (a percentage, per carrier), remote area (flat fee) and oversize (longest side over 100 cm or length + girth over 300 cm). Returns each line and the total.",
      inputSchema: {
        carrier,
        price: z.number().min(0).describe("Base price from get_quote."),
        currency,
        remoteArea: z.boolean().default(false).describe("True when delivering to a remote area (islands, mountain villages)."),
        dimensionsCm: dimensions.optional(),
      },
      outputSchema: {
        carrier,
        basePrice: z.number().describe("The price passed in."),
        surcharges: z
          .array(
            z.object({
              type: z.enum(["fuel", "remote_area", "oversize"]).describe("Kind of surcharge."),
              amount: z.number().describe("Amount in `currency`."),
              description: z.string().describe("Why it applies."),
            }),
          )
          .describe("Surcharges that apply; empty when none do."),
        total: z.number().describe("basePrice plus every surcharge."),
        currency,
      },
      annotations: readOnly,
    },
    ({ carrier: id, price, currency: cur, remoteArea, dimensionsCm }) => ok({ ...surcharges(id, price, cur, remoteArea, dimensionsCm) }),
  );

  server.registerTool(
    "list_shipments",
    {
      title: "List past shipments",
      description: `Lists every shipment the account sent in a year, oldest first, with its carrier, route, weight, price, the promised delivery window and the business days it took. About ${HISTORY_SIZE} parcels a year; there is no filter, so read the fields you need.`,
      inputSchema: { year: z.number().int().min(2000).max(2100).default(HISTORY_YEAR).describe(`Calendar year, e.g. ${HISTORY_YEAR}.`) },
      outputSchema: {
        shipments: z
          .array(
            z.object({
              id: z.string().describe("Shipment id."),
              shippedOn: z.string().describe("Pickup date, YYYY-MM-DD."),
              carrier,
              origin: z.string().describe("Origin country code."),
              destination: z.string().describe("Destination country code."),
              weightKg: z.number().describe("Actual weight in kg."),
              price: z.number().describe("Base price paid, in `currency`."),
              currency,
              promisedBusinessDays: z.number().int().describe("The carrier's guaranteed window (maxBusinessDays when it shipped)."),
              deliveredBusinessDays: z.number().int().nullable().describe("Business days it took; null while in transit."),
              status: z.enum(["delivered", "in_transit"]).describe("Where the parcel is."),
              reference: z.string().describe("Purchase order it belongs to."),
            }),
          )
          .describe("Every shipment of the year, oldest first."),
      },
      annotations: readOnly,
    },
    ({ year }) => ok({ shipments: shipmentHistory(year) }),
  );

  server.registerTool(
    "get_customs_guide",
    {
      title: "Get a customs guide",
      description:
        "The full customs guide for sending goods into a country: import VAT, de minimis values, required documents, prohibited and restricted items, and the whole tariff (about a thousand HS headings with their duty rates).",
      inputSchema: { destination: country("Destination") },
      outputSchema: {
        destination: z.string().describe("Destination country code."),
        country: z.string().describe("Country name."),
        updatedOn: z.string().describe("Date of this edition, YYYY-MM-DD."),
        vatPercent: z.number().describe("Import VAT (or GST), charged on the customs value plus duty."),
        deMinimis: z
          .object({
            dutyFreeUpToEur: z.number().describe("Goods worth up to this (EUR) pay no duty."),
            vatFreeUpToEur: z.number().describe("Goods worth up to this (EUR) pay no import VAT."),
          })
          .describe("Values under which nothing is charged."),
        requiredDocuments: z.array(z.string()).describe("Papers every parcel needs."),
        prohibitedItems: z.array(z.string()).describe("Goods that may not be sent."),
        restrictedItems: z
          .array(z.object({ item: z.string().describe("The goods."), rule: z.string().describe("What they need to be sent.") }))
          .describe("Goods allowed under a rule."),
        tariff: z
          .array(
            z.object({
              heading: z.string().describe("Four-digit HS heading, e.g. 8517."),
              description: z.string().describe("What the heading covers."),
              category: z.string().describe("Kind of goods in plain words: electronics, clothing, food ..."),
              dutyPercent: z.number().describe("Duty on the customs value, in percent."),
            }),
          )
          .describe("Every tariff heading with its duty rate."),
        notes: z.array(z.string()).describe("How duty and VAT are computed, and other rules."),
      },
      annotations: readOnly,
    },
    ({ destination }) => ok({ ...customsGuide(destination) }),
  );

  return server;
}
