import { describe, expect, it } from "vitest";
import { compileSchema, validateArguments, validateStructuredContent } from "@/lib/mcp/validate";

const QUOTE_INPUT = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    carrier: { type: "string", enum: ["dhl", "ups"] },
    weightKg: { type: "number", exclusiveMinimum: 0 },
    items: { type: "array", items: { type: "object", properties: { qty: { type: "integer" } }, required: ["qty"] } },
    email: { type: "string", format: "email" },
  },
  required: ["carrier", "weightKg"],
  additionalProperties: false,
};

describe("validateArguments", () => {
  it("accepts valid arguments", () => {
    expect(validateArguments(QUOTE_INPUT, { carrier: "dhl", weightKg: 2, items: [{ qty: 1 }], email: "a@b.example" })).toEqual({ ok: true, warnings: [] });
  });

  it("names every problem with a readable path", () => {
    const result = validateArguments(QUOTE_INPUT, { carrier: "fedex", items: [{ qty: "2" }, {}], email: "nope", extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // In the validator's own order (properties, then required, then additionalProperties).
    expect(result.issues).toEqual([
      { path: "arguments.weightKg", message: "is required" },
      { path: "arguments.carrier", message: 'must be one of "dhl", "ups"' },
      { path: "arguments.items[0].qty", message: "must be integer" },
      { path: "arguments.items[1].qty", message: "is required" },
      { path: "arguments.email", message: 'must match format "email"' },
      { path: "arguments", message: 'has an unknown property "extra"' },
    ]);
    expect(result.message).toBe(
      'Invalid arguments: arguments.weightKg is required; arguments.carrier must be one of "dhl", "ups"; arguments.items[0].qty must be integer; arguments.items[1].qty is required; arguments.email must match format "email"; arguments has an unknown property "extra"',
    );
  });

  it("treats missing arguments as an empty object", () => {
    expect(validateArguments({ type: "object", properties: {} }, undefined)).toEqual({ ok: true, warnings: [] });
    expect(validateArguments({ type: "object", required: ["q"] }, undefined).ok).toBe(false);
  });

  it("handles draft 2020-12 schemas ($defs, prefixItems) and draft-07 tuples", () => {
    const s2020 = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { point: { $ref: "#/$defs/pair" } },
      $defs: { pair: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
    };
    expect(validateArguments(s2020, { point: [1, 2] }).ok).toBe(true);
    expect(validateArguments(s2020, { point: [1, 2, 3] }).ok).toBe(false);
    // Array-form `items` is draft-07 only: without $schema we fall back to draft-07.
    const tuple07 = { type: "object", properties: { point: { type: "array", items: [{ type: "number" }, { type: "string" }] } } };
    expect(validateArguments(tuple07, { point: [1, "a"] }).ok).toBe(true);
    expect(validateArguments(tuple07, { point: [1, 2] }).ok).toBe(false);
  });

  it("does not throw on malformed schemas: it warns and skips", () => {
    const danglingRef = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    const result = validateArguments(danglingRef, { a: 1 });
    expect(result.ok).toBe(true);
    expect(result.ok && result.warnings[0]).toMatch(/^inputSchema not checked: the schema does not compile: .*missing/);
    expect(validateArguments({ type: "strnig" }, {}).ok).toBe(true);
    expect(validateArguments("nope", {})).toEqual({ ok: true, warnings: ["inputSchema not checked: the schema is not a JSON object"] });
    expect(validateArguments({ $schema: "https://unknown.example/schema", type: "object" }, {})).toEqual({ ok: true, warnings: [] });
  });

  it("flags a schema without a top-level type but still checks it", () => {
    const result = validateArguments({ properties: { a: { type: "string" } }, required: ["a"] }, {});
    expect(result.ok).toBe(false);
    expect(validateArguments({ properties: { a: { type: "string" } } }, { a: "x" })).toEqual({
      ok: true,
      warnings: ["the schema has no top-level type (MCP expects type: object)"],
    });
  });

  it("compiles each distinct schema once", () => {
    const a = compileSchema({ type: "object", properties: { n: { type: "number" } } });
    const b = compileSchema({ type: "object", properties: { n: { type: "number" } } });
    expect(a.ok && b.ok && a.validate === b.validate).toBe(true);
    // Servers reuse `$id`s: each schema stands alone, with no registry shared between them.
    for (const n of [0, 1, 2]) expect(compileSchema({ $id: "https://schemas.example/quote", type: "object", minProperties: n }).ok, `variant ${n}`).toBe(true);
    expect(compileSchema({ $id: "urn:x", type: "object" }).ok).toBe(true);
  });
});

describe("validateStructuredContent", () => {
  const OUT = { type: "object", properties: { price: { type: "number" }, currency: { type: "string" } }, required: ["price", "currency"] };

  it("returns no findings for a match", () => {
    expect(validateStructuredContent(OUT, { price: 1, currency: "EUR" })).toEqual([]);
  });

  it("flags mismatches instead of throwing", () => {
    expect(validateStructuredContent(OUT, { price: "1" })).toEqual([
      { kind: "mismatch", path: "structuredContent.currency", message: "is required" },
      { kind: "mismatch", path: "structuredContent.price", message: "must be number" },
    ]);
    expect(validateStructuredContent(OUT, undefined)).toEqual([{ kind: "mismatch", path: "structuredContent", message: "must be object" }]);
  });

  it("reports a broken output schema as a schema finding", () => {
    expect(validateStructuredContent({ $ref: "#/definitions/nowhere" }, {})).toEqual([
      { kind: "schema", path: "outputSchema", message: expect.stringMatching(/^not checked: the schema does not compile/) as unknown },
    ]);
  });
});
