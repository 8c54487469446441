/**
 * What checking a tool call's arguments costs: lib/mcp/validate.ts (an interpreting validator,
 * @cfworker/json-schema, because the page's CSP forbids eval) beside Ajv, which compiles each
 * schema to a function and so cannot run under that policy. Same schema, same values, same run.
 *
 *   npx tsx scripts/bench.ts --only validation
 */
import Ajv2020 from "ajv/dist/2020";
import { validateArguments } from "../../lib/mcp/validate";
import { median, type BenchRow } from "./rows";

// A realistic tool input: enums, numbers with bounds, an array of objects, a format.
const SCHEMA = {
  type: "object",
  required: ["carrier", "weightKg", "items"],
  additionalProperties: false,
  properties: {
    carrier: { type: "string", enum: ["postal", "parcelnet", "swiftair", "cargoline", "eurodash"] },
    weightKg: { type: "number", minimum: 0, maximum: 1000 },
    from: { type: "string", minLength: 2, maxLength: 2 },
    to: { type: "string", minLength: 2, maxLength: 2 },
    items: {
      type: "array",
      items: { type: "object", required: ["sku", "qty"], properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } } },
    },
    email: { type: "string", format: "email" },
  },
};
const VALID = {
  carrier: "swiftair",
  weightKg: 2.5,
  from: "DE",
  to: "US",
  items: [
    { sku: "A-1", qty: 2 },
    { sku: "B-7", qty: 1 },
  ],
  email: "a@b.example",
};
const INVALID = { carrier: "fedex", weightKg: -1, items: [{ sku: "A-1", qty: 0 }], extra: true };

const CALLS = 20_000;
const ROUNDS = 7;

function perCallMicros(check: () => void): number {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) check();
    samples.push(((performance.now() - start) * 1000) / CALLS);
  }
  return median(samples);
}

export function benchValidation(): Promise<BenchRow[]> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const compiled = ajv.compile(SCHEMA);
  validateArguments(SCHEMA, VALID); // prepare once, as the first call of a session does
  const ours = { valid: perCallMicros(() => validateArguments(SCHEMA, VALID)), invalid: perCallMicros(() => validateArguments(SCHEMA, INVALID)) };
  const theirs = { valid: perCallMicros(() => compiled(VALID)), invalid: perCallMicros(() => compiled(INVALID)) };
  return Promise.resolve([
    { name: "validate valid arguments: @cfworker/json-schema (ours, no eval)", median: ours.valid, unit: "µs/call" },
    {
      name: "validate valid arguments: Ajv, compiled (needs eval)",
      median: theirs.valid,
      unit: "µs/call",
      note: `ours is ${(ours.valid / theirs.valid).toFixed(1)}× Ajv`,
    },
    { name: "validate invalid arguments, all errors: ours", median: ours.invalid, unit: "µs/call", note: "includes turning errors into messages" },
    {
      name: "validate invalid arguments, all errors: Ajv",
      median: theirs.invalid,
      unit: "µs/call",
      note: `ours is ${(ours.invalid / theirs.invalid).toFixed(1)}× Ajv`,
    },
  ]);
}
