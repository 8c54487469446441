/**
 * The shipping demo's rate tables and pricing rules. Pure and fixed: the same parcel always
 * gets the same quote, so "the cheapest carrier that delivers within N days" has one answer.
 * Carriers trade price against speed differently per zone, so answering needs several calls
 * (quote every carrier, estimate every carrier, compare), which is what code mode is for.
 */
import { roundMoney } from "./result";

/** Countries the demo ships between. */
export const COUNTRIES = {
  DE: { name: "Germany", region: "europe" },
  FR: { name: "France", region: "europe" },
  NL: { name: "Netherlands", region: "europe" },
  ES: { name: "Spain", region: "europe" },
  IT: { name: "Italy", region: "europe" },
  PL: { name: "Poland", region: "europe" },
  CH: { name: "Switzerland", region: "europe" },
  GB: { name: "United Kingdom", region: "europe" },
  US: { name: "United States", region: "americas" },
  CA: { name: "Canada", region: "americas" },
  MX: { name: "Mexico", region: "americas" },
  BR: { name: "Brazil", region: "americas" },
  JP: { name: "Japan", region: "asia-pacific" },
  CN: { name: "China", region: "asia-pacific" },
  IN: { name: "India", region: "asia-pacific" },
  SG: { name: "Singapore", region: "asia-pacific" },
  AU: { name: "Australia", region: "asia-pacific" },
  ZA: { name: "South Africa", region: "africa" },
} as const;

/** ISO 3166-1 alpha-2 code of a supported country. */
export type CountryCode = keyof typeof COUNTRIES;
/** Supported country codes, for enums. */
export const COUNTRY_CODES = Object.keys(COUNTRIES) as [CountryCode, ...CountryCode[]];

/** Same country, same region, or across regions. */
export type Zone = "domestic" | "regional" | "intercontinental";

/** Quote currency, decided by the origin market. */
export type Currency = "EUR" | "USD" | "GBP";
const PER_EUR: Record<Currency, number> = { EUR: 1, USD: 1.08, GBP: 0.85 };

interface ZoneRate {
  base: number;
  perKg: number;
  minDays: number;
  maxDays: number;
}

interface Carrier {
  name: string;
  description: string;
  maxWeightKg: number;
  fuelPercent: number;
  remoteAreaEur: number;
  oversizeEur: number;
  rates: Record<Zone, ZoneRate>;
  /** EuroDash is regional inside Europe only; elsewhere it hands parcels to partners. */
  regionalOnlyIn?: string;
}

/** Carrier ids. */
export const CARRIER_IDS = ["postal", "parcelnet", "swiftair", "cargoline", "eurodash"] as const;
/** A carrier id. */
export type CarrierId = (typeof CARRIER_IDS)[number];

// Prices in EUR before currency conversion; days are business days.
const CARRIERS: Record<CarrierId, Carrier> = {
  postal: {
    name: "Global Post Economy",
    description: "National post networks. The lowest prices, the slowest delivery, no fuel surcharge.",
    maxWeightKg: 30,
    fuelPercent: 0,
    remoteAreaEur: 3,
    oversizeEur: 15,
    rates: {
      domestic: { base: 4.5, perKg: 1.2, minDays: 2, maxDays: 4 },
      regional: { base: 9, perKg: 3, minDays: 5, maxDays: 9 },
      intercontinental: { base: 14, perKg: 6, minDays: 10, maxDays: 18 },
    },
  },
  parcelnet: {
    name: "ParcelNet Standard",
    description: "Road and sea parcel network. Mid-priced and dependable, a few days slower than express.",
    maxWeightKg: 50,
    fuelPercent: 8,
    remoteAreaEur: 5,
    oversizeEur: 20,
    rates: {
      domestic: { base: 6, perKg: 0.9, minDays: 1, maxDays: 3 },
      regional: { base: 12, perKg: 2.4, minDays: 3, maxDays: 6 },
      intercontinental: { base: 22, perKg: 5, minDays: 6, maxDays: 9 },
    },
  },
  swiftair: {
    name: "SwiftAir Express",
    description: "Air express. The fastest everywhere and the most expensive, with a high fuel surcharge.",
    maxWeightKg: 70,
    fuelPercent: 15,
    remoteAreaEur: 12,
    oversizeEur: 40,
    rates: {
      domestic: { base: 12, perKg: 1.5, minDays: 1, maxDays: 1 },
      regional: { base: 25, perKg: 4, minDays: 1, maxDays: 2 },
      intercontinental: { base: 45, perKg: 8, minDays: 2, maxDays: 4 },
    },
  },
  cargoline: {
    name: "CargoLine Freight",
    description: "Freight consolidation. A high base price but cheap per kilogram: best for heavy shipments. Slow. No oversize fee.",
    maxWeightKg: 1000,
    fuelPercent: 12,
    remoteAreaEur: 25,
    oversizeEur: 0,
    rates: {
      domestic: { base: 15, perKg: 0.4, minDays: 3, maxDays: 5 },
      regional: { base: 30, perKg: 1, minDays: 5, maxDays: 8 },
      intercontinental: { base: 60, perKg: 2, minDays: 12, maxDays: 20 },
    },
  },
  eurodash: {
    name: "EuroDash",
    description: "Fast and cheap inside Europe; outside Europe it hands parcels to partner airlines at a middling price and speed.",
    maxWeightKg: 40,
    fuelPercent: 6,
    remoteAreaEur: 4,
    oversizeEur: 18,
    regionalOnlyIn: "europe",
    rates: {
      domestic: { base: 5, perKg: 1, minDays: 1, maxDays: 2 },
      regional: { base: 10, perKg: 2, minDays: 2, maxDays: 3 },
      intercontinental: { base: 35, perKg: 7, minDays: 5, maxDays: 7 },
    },
  },
};

/** Parcel size in centimetres. */
export interface Dimensions {
  length: number;
  width: number;
  height: number;
}

/** Public facts about every carrier (no prices: those need a quote). */
export function listCarriers() {
  return CARRIER_IDS.map((id) => ({ id, name: CARRIERS[id].name, description: CARRIERS[id].description, maxWeightKg: CARRIERS[id].maxWeightKg }));
}

/** The zone a route falls in. */
export function zoneFor(origin: CountryCode, destination: CountryCode): Zone {
  if (origin === destination) return "domestic";
  return COUNTRIES[origin].region === COUNTRIES[destination].region ? "regional" : "intercontinental";
}

function rateFor(carrier: CarrierId, origin: CountryCode, destination: CountryCode): { zone: Zone; rate: ZoneRate } {
  const c = CARRIERS[carrier];
  const zone = zoneFor(origin, destination);
  const outsideHome = zone === "regional" && c.regionalOnlyIn !== undefined && COUNTRIES[origin].region !== c.regionalOnlyIn;
  return { zone, rate: c.rates[outsideHome ? "intercontinental" : zone] };
}

/** Quotes are in the origin market's currency: GBP from GB, EUR elsewhere in Europe, else USD. */
export function currencyFor(origin: CountryCode): Currency {
  if (origin === "GB") return "GBP";
  return COUNTRIES[origin].region === "europe" ? "EUR" : "USD";
}

/** Billable weight: the larger of actual and volumetric (L×W×H / 5000), rounded up to 0.1 kg. */
export function billableWeightKg(weightKg: number, dims?: Dimensions): number {
  const volumetric = dims ? (dims.length * dims.width * dims.height) / 5000 : 0;
  return Math.ceil(Math.max(weightKg, volumetric) * 10 - 1e-9) / 10;
}

/** A base price quote. */
export interface Quote {
  carrier: CarrierId;
  origin: CountryCode;
  destination: CountryCode;
  zone: Zone;
  billableWeightKg: number;
  price: number;
  currency: Currency;
}

/** A base price (before surcharges), or an error message when the carrier refuses the parcel. */
export function quote(carrier: CarrierId, origin: CountryCode, destination: CountryCode, weightKg: number, dims?: Dimensions): Quote | { error: string } {
  const c = CARRIERS[carrier];
  const billable = billableWeightKg(weightKg, dims);
  if (billable > c.maxWeightKg) {
    return { error: `${c.name} takes parcels up to ${c.maxWeightKg} kg; this one bills as ${billable} kg` };
  }
  const { zone, rate } = rateFor(carrier, origin, destination);
  const currency = currencyFor(origin);
  const price = roundMoney((rate.base + rate.perKg * billable) * PER_EUR[currency]);
  return { carrier, origin, destination, zone, billableWeightKg: billable, price, currency };
}

/** Delivery window in business days. */
export function estimate(carrier: CarrierId, origin: CountryCode, destination: CountryCode) {
  const { zone, rate } = rateFor(carrier, origin, destination);
  return { carrier, origin, destination, zone, minBusinessDays: rate.minDays, maxBusinessDays: rate.maxDays };
}

/** A parcel is oversize when its longest side passes 100 cm or length + girth passes 300 cm. */
export function isOversize(dims: Dimensions): boolean {
  const [longest = 0, a = 0, b = 0] = [dims.length, dims.width, dims.height].sort((x, y) => y - x);
  return longest > 100 || longest + 2 * (a + b) > 300;
}

/** Surcharge lines and the total for a quoted price. */
export function surcharges(carrier: CarrierId, price: number, currency: Currency, remoteArea: boolean, dims?: Dimensions) {
  const c = CARRIERS[carrier];
  const lines: Array<{ type: "fuel" | "remote_area" | "oversize"; amount: number; description: string }> = [];
  if (c.fuelPercent > 0) lines.push({ type: "fuel", amount: roundMoney((price * c.fuelPercent) / 100), description: `${c.fuelPercent}% fuel surcharge` });
  if (remoteArea) lines.push({ type: "remote_area", amount: roundMoney(c.remoteAreaEur * PER_EUR[currency]), description: "delivery to a remote area" });
  if (dims && isOversize(dims) && c.oversizeEur > 0) {
    lines.push({
      type: "oversize",
      amount: roundMoney(c.oversizeEur * PER_EUR[currency]),
      description: "longest side over 100 cm or length + girth over 300 cm",
    });
  }
  const total = roundMoney(lines.reduce((sum, line) => sum + line.amount, price));
  return { carrier, basePrice: price, surcharges: lines, total, currency };
}
