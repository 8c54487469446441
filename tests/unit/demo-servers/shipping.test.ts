import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billableWeightKg, isOversize } from "@/lib/demo-servers/shipping-rates";
import { connectClient } from "../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { checked } from "../../fixtures/mcp/tools";
import type { CheckedClient } from "../../fixtures/mcp/tools";

interface Carrier {
  id: string;
  maxWeightKg: number;
}
interface Quote {
  price: number;
  currency: string;
  zone: string;
  billableWeightKg: number;
}
interface Estimate {
  minBusinessDays: number;
  maxBusinessDays: number;
}

let host: Awaited<ReturnType<typeof startDemoHost>>;
let s: CheckedClient;
beforeAll(async () => {
  host = await startDemoHost();
  s = await checked(await connectClient(host.urlFor("shipping")));
});
afterAll(async () => {
  await s.client.close();
  await host.close();
});

/** The multi-step question code mode exists for, answered the way a program would. */
async function cheapestWithin(days: number, origin: string, destination: string, weightKg: number) {
  const { carriers } = await s.call<{ carriers: Carrier[] }>("list_carriers");
  const options = await Promise.all(
    carriers.map(async (c) => {
      const [q, e] = await Promise.all([
        s.call<Quote>("get_quote", { carrier: c.id, origin, destination, weightKg }),
        s.call<Estimate>("estimate_delivery", { carrier: c.id, origin, destination }),
      ]);
      const total = await s.call<{ total: number }>("apply_surcharges", { carrier: c.id, price: q.price, currency: q.currency });
      return { carrier: c.id, total: total.total, maxDays: e.maxBusinessDays };
    }),
  );
  return options.filter((o) => o.maxDays <= days).sort((a, b) => a.total - b.total)[0];
}

describe("shipping demo", () => {
  it("lists at least four carriers and the countries served", async () => {
    const out = await s.call<{ carriers: Carrier[]; countries: Array<{ code: string }> }>("list_carriers");
    expect(out.carriers.length).toBeGreaterThanOrEqual(4);
    expect(out.countries.map((c) => c.code)).toEqual(expect.arrayContaining(["DE", "US", "JP"]));
  });

  it("quotes in the origin market's currency", async () => {
    expect(await s.call<Quote>("get_quote", { carrier: "postal", origin: "DE", destination: "US", weightKg: 2 })).toEqual({
      carrier: "postal",
      origin: "DE",
      destination: "US",
      zone: "intercontinental",
      billableWeightKg: 2,
      price: 26,
      currency: "EUR",
    });
    const fromUs = await s.call<Quote>("get_quote", { carrier: "postal", origin: "US", destination: "DE", weightKg: 2 });
    expect(fromUs).toMatchObject({ price: 28.08, currency: "USD" });
    expect((await s.call<Quote>("get_quote", { carrier: "postal", origin: "GB", destination: "GB", weightKg: 1 })).currency).toBe("GBP");
  });

  it("bills large light parcels by volumetric weight", async () => {
    const q = await s.call<Quote>("get_quote", {
      carrier: "parcelnet",
      origin: "FR",
      destination: "DE",
      weightKg: 1,
      dimensionsCm: { length: 50, width: 40, height: 30 },
    });
    expect(q.billableWeightKg).toBe(12);
    expect(billableWeightKg(1.01)).toBe(1.1);
    expect(billableWeightKg(2)).toBe(2);
  });

  it("estimates delivery windows that differ by carrier", async () => {
    const swift = await s.call<Estimate>("estimate_delivery", { carrier: "swiftair", origin: "DE", destination: "US" });
    const postal = await s.call<Estimate>("estimate_delivery", { carrier: "postal", origin: "DE", destination: "US" });
    expect(swift.maxBusinessDays).toBeLessThan(postal.minBusinessDays);
  });

  it("treats EuroDash as regional only inside Europe", async () => {
    const eu = await s.call<Estimate>("estimate_delivery", { carrier: "eurodash", origin: "DE", destination: "FR" });
    const americas = await s.call<Estimate>("estimate_delivery", { carrier: "eurodash", origin: "US", destination: "CA" });
    expect(eu.maxBusinessDays).toBe(3);
    expect(americas.maxBusinessDays).toBe(7);
  });

  it("applies fuel, remote-area and oversize surcharges", async () => {
    const out = await s.call<{ surcharges: Array<{ type: string; amount: number }>; total: number }>("apply_surcharges", {
      carrier: "swiftair",
      price: 100,
      currency: "EUR",
      remoteArea: true,
      dimensionsCm: { length: 120, width: 20, height: 20 },
    });
    expect(out.surcharges).toEqual([
      { type: "fuel", amount: 15, description: "15% fuel surcharge" },
      { type: "remote_area", amount: 12, description: "delivery to a remote area" },
      expect.objectContaining({ type: "oversize", amount: 40 }),
    ]);
    expect(out.total).toBe(167);
    expect((await s.call<{ surcharges: unknown[]; total: number }>("apply_surcharges", { carrier: "postal", price: 10, currency: "EUR" })).total).toBe(10);
    expect(isOversize({ length: 90, width: 60, height: 60 })).toBe(true); // girth rule
  });

  it("refuses parcels over the carrier's limit with a tool error", async () => {
    expect(await s.callError("get_quote", { carrier: "postal", origin: "DE", destination: "FR", weightKg: 31 })).toMatch(/up to 30 kg/);
  });

  it("rejects unknown countries through the input schema", async () => {
    expect(await s.callError("get_quote", { carrier: "postal", origin: "XX", destination: "FR", weightKg: 1 })).toMatch(/origin/);
  });

  it("answers 'cheapest within N days' with a different carrier per deadline, consistently", async () => {
    expect(await cheapestWithin(5, "DE", "US", 2)).toEqual({ carrier: "swiftair", total: 70.15, maxDays: 4 });
    expect((await cheapestWithin(7, "DE", "US", 2))?.carrier).toBe("eurodash");
    expect((await cheapestWithin(10, "DE", "US", 2))?.carrier).toBe("parcelnet");
    expect((await cheapestWithin(30, "DE", "US", 2))?.carrier).toBe("postal");
    expect(await cheapestWithin(5, "DE", "US", 2)).toEqual(await cheapestWithin(5, "DE", "US", 2));
  });

  it("lists the year's 2 000 shipments, the same every time, consistent with the rates; other years are empty", async () => {
    const { shipments } = await s.call<{ shipments: Shipment[] }>("list_shipments", { year: 2026 });
    expect(shipments).toHaveLength(2_000);
    expect(shipments).toEqual((await s.call<{ shipments: Shipment[] }>("list_shipments", {})).shipments);
    expect(shipments.map((x) => x.shippedOn)).toEqual(shipments.map((x) => x.shippedOn).sort());
    expect(new Set(shipments.map((x) => x.id)).size).toBe(2_000);
    for (const x of shipments.slice(0, 50)) {
      expect(x.origin).not.toBe(x.destination);
      expect(x.shippedOn.startsWith("2026-")).toBe(true);
    }
    // A handful are badly late, most of them with CargoLine: one clear answer for the large-results suite.
    const late = shipments.filter((x) => x.deliveredBusinessDays !== null && x.deliveredBusinessDays - x.promisedBusinessDays > 3);
    expect(late.length).toBeGreaterThanOrEqual(5);
    expect(late.length).toBeLessThanOrEqual(40);
    expect(late.filter((x) => x.carrier === "cargoline").length).toBeGreaterThan(late.length / 2);
    expect(shipments.some((x) => x.status === "in_transit" && x.deliveredBusinessDays === null)).toBe(true);
    expect((await s.call<{ shipments: Shipment[] }>("list_shipments", { year: 2025 })).shipments).toEqual([]);
  });

  it("gives a customs guide of about a thousand tariff lines, with VAT, de minimis and documents per country", async () => {
    const br = await s.call<Guide>("get_customs_guide", { destination: "BR" });
    expect(br.tariff.length).toBeGreaterThan(900);
    expect(br.tariff.find((t) => t.heading === "8517")).toMatchObject({ description: "Telephone sets, including smartphones", category: "electronics" });
    expect(br).toMatchObject({ country: "Brazil", vatPercent: 17, deMinimis: { dutyFreeUpToEur: 50, vatFreeUpToEur: 0 } });
    expect(br.requiredDocuments).toContain("CN23 customs declaration");
    const fr = await s.call<Guide>("get_customs_guide", { destination: "FR" });
    expect(fr.vatPercent).toBe(0);
    expect(fr.tariff.every((t) => t.dutyPercent === 0)).toBe(true);
    expect(await s.callError("get_customs_guide", { destination: "XX" })).toMatch(/destination/);
  });
});

interface Shipment {
  id: string;
  shippedOn: string;
  carrier: string;
  origin: string;
  destination: string;
  promisedBusinessDays: number;
  deliveredBusinessDays: number | null;
  status: string;
}
interface Guide {
  country: string;
  vatPercent: number;
  deMinimis: { dutyFreeUpToEur: number; vatFreeUpToEur: number };
  requiredDocuments: string[];
  tariff: Array<{ heading: string; description: string; category: string; dutyPercent: number }>;
}
