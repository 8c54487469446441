import { readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { buildFormModel, fromArguments, initialValue, isBlank, toArguments, type FormNode, type FormValue } from "@/lib/forms";
import { validateArguments } from "@/lib/mcp/validate";
import { listDemoTools } from "./demo-tools";

type FixtureTool = { name: string; inputSchema: Record<string, unknown> };
const adversarial = JSON.parse(readFileSync("tests/fixtures/schemas/adversarial.json", "utf8")) as Record<string, FixtureTool[]>;
const fixture = (group: string, name: string) => adversarial[group]?.find((t) => t.name === name)?.inputSchema;

const text = (kind: "string" | "number" | "json", value: string): FormValue => ({ kind, text: value });
const object = (fields: Record<string, FormValue>, extra: Record<string, unknown> = {}): FormValue => ({ kind: "object", fields, extra });

function roundTrip(node: FormNode, args: unknown): unknown {
  const result = toArguments(node, fromArguments(node, args));
  if (!result.ok) throw new Error(`round trip failed: ${JSON.stringify(result.errors)}`);
  return result.args;
}

// Valid arguments for each demo tool, checked against the listed schema below.
const VALID_ARGS: Record<string, unknown[]> = {
  "shipping/list_carriers": [{}],
  "shipping/get_quote": [
    { carrier: "postal", origin: "DE", destination: "US", weightKg: 2.5 },
    { carrier: "swiftair", origin: "JP", destination: "BR", weightKg: 0.1, dimensionsCm: { length: 30, width: 20.5, height: 1e-3 } },
  ],
  "shipping/apply_surcharges": [{ carrier: "eurodash", price: 0, currency: "EUR", remoteArea: true }],
  "news/web_search": [{ query: "port strike" }, { query: "élections", region: "fr", limit: 20 }],
  "store/search_stores": [{ near: "Mitte", openOnly: false }],
  "store/add_to_cart": [{ cartId: "c1", itemId: "m1", quantity: 3 }],
  "store/place_order": [{ cartId: "c1", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "paypal", tip: 2.75 }],
  "lab/echo": [
    { message: "", data: { nested: [1, null, { deep: true }], big: 2 ** 60 } },
    { message: "hi", data: null },
  ],
  "lab/protocol_error": [{ code: -32000 }, {}],
  "lab/flaky": [
    { seed: "abc", rate: 0.5 },
    { seed: 42, rate: 1, attempt: 7 },
  ],
};

describe("form values on the demo servers' schemas", () => {
  let tools: Map<string, Tool>;
  beforeAll(async () => {
    tools = await listDemoTools();
  });
  const model = (name: string) => buildFormModel(tools.get(name)?.inputSchema);

  it("starts apply_surcharges with required fields, defaults and nothing else", () => {
    const node = model("shipping/apply_surcharges");
    expect(initialValue(node)).toEqual(
      object({
        carrier: { kind: "enum", index: -1 },
        price: text("number", ""),
        currency: { kind: "enum", index: -1 },
        remoteArea: { kind: "boolean", value: false },
      }),
    );
    expect(toArguments(node, initialValue(node))).toEqual({
      ok: false,
      errors: [
        { path: "arguments.carrier", message: "Choose a value." },
        { path: "arguments.price", message: "Enter a number." },
        { path: "arguments.currency", message: "Choose a value." },
      ],
    });
  });

  it("turns a filled-in get_quote form into arguments, leaving out the blank optional parcel size", () => {
    const node = model("shipping/get_quote");
    const value = object({
      carrier: { kind: "enum", index: 1 },
      origin: { kind: "enum", index: 0 },
      destination: { kind: "enum", index: 8 },
      weightKg: text("number", " 2.50 "),
      dimensionsCm: object({ length: text("number", ""), width: text("number", ""), height: text("number", "") }),
    });
    expect(toArguments(node, value)).toEqual({ ok: true, args: { carrier: "parcelnet", origin: "DE", destination: "US", weightKg: 2.5 } });
    const partly = object({
      ...(value.kind === "object" ? value.fields : {}),
      dimensionsCm: object({ length: text("number", "30"), width: text("number", "abc"), height: text("number", "") }),
    });
    expect(toArguments(node, partly)).toEqual({
      ok: false,
      errors: [
        { path: "arguments.dimensionsCm.width", message: '"abc" is not a number.' },
        { path: "arguments.dimensionsCm.height", message: "Enter a number." },
      ],
    });
  });

  it("round-trips valid arguments for every demo tool: toArguments(fromArguments(x)) equals x", () => {
    for (const [name, list] of Object.entries(VALID_ARGS)) {
      const tool = tools.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      for (const args of list) {
        expect(validateArguments(tool.inputSchema, args), `${name} ${JSON.stringify(args)}`).toMatchObject({ ok: true });
        expect(roundTrip(buildFormModel(tool.inputSchema), args), name).toEqual(args);
      }
    }
  });

  it("fills numbers, enums and JSON fields from arguments so the form can show them", () => {
    const node = model("lab/flaky");
    expect(fromArguments(node, { seed: 42, rate: 0.25, attempt: 3 })).toEqual(
      object({ seed: text("json", "42"), rate: text("number", "0.25"), attempt: text("number", "3") }),
    );
    expect(fromArguments(model("lab/protocol_error"), { code: -32602 })).toEqual(object({ code: { kind: "enum", index: 2 } }));
  });
});

describe("initialValue", () => {
  it("applies defaults of the right type and ignores the rest", () => {
    const node = buildFormModel({
      type: "object",
      properties: {
        s: { type: "string", default: "hi" },
        n: { type: "number", default: "not a number" },
        e: { enum: ["a", "b"], default: "b" },
        one: { const: "only" },
        list: { type: "array", items: { type: "integer" }, minItems: 2 },
        maybe: { type: ["string", "null"], default: null },
        raw: { default: { a: 1 } },
        flag: { type: "boolean" },
      },
      required: ["n", "one", "list", "flag"],
    });
    expect(initialValue(node)).toEqual(
      object({
        s: text("string", "hi"),
        n: text("number", ""),
        e: { kind: "enum", index: 1 },
        one: { kind: "enum", index: 0 },
        list: { kind: "array", items: [text("number", ""), text("number", "")] },
        maybe: { kind: "null" },
        raw: text("json", '{\n  "a": 1\n}'),
        flag: { kind: "boolean", value: false },
      }),
    );
  });

  it("takes an object's default and still adds its required fields", () => {
    const node = buildFormModel({
      type: "object",
      properties: { box: { type: "object", default: { w: 2 }, properties: { w: { type: "integer" }, h: { type: "integer" } }, required: ["h"] } },
      required: ["box"],
    });
    expect(initialValue(node)).toEqual(object({ box: object({ w: text("number", "2"), h: text("number", "") }) }));
  });
});

describe("toArguments", () => {
  const node = buildFormModel({
    type: "object",
    properties: {
      name: { type: "string" },
      nick: { type: "string" },
      count: { type: "integer" },
      ratio: { type: "number" },
      payload: {},
      tags: { type: "array", items: { type: "integer" } },
      note: { type: ["string", "null"] },
      "with space": { type: "boolean" },
    },
    required: ["name", "count", "payload"],
  });

  it("keeps required empty strings, leaves out blank optional fields, keeps explicit empty lists", () => {
    const value = object({
      name: text("string", ""),
      nick: text("string", ""),
      count: text("number", "3"),
      ratio: text("number", "  "),
      payload: text("json", "[1]"),
      tags: { kind: "array", items: [] },
    });
    expect(toArguments(node, value)).toEqual({ ok: true, args: { name: "", count: 3, payload: [1], tags: [] } });
  });

  it.each([
    ["abc", '"abc" is not a number.'],
    ["0x10", '"0x10" is not a number.'],
    ["Infinity", '"Infinity" is not a number.'],
    ["1e400", "1e400 is too large to be a number."],
    ["1.5", "1.5 is not a whole number."],
    ["9007199254740993", "9007199254740993 is too large to send exactly."],
    ["", "Enter a whole number."],
  ])("refuses %j for an integer", (input, message) => {
    const result = toArguments(node, object({ name: text("string", "x"), count: text("number", input), payload: text("json", "1") }));
    expect(result).toEqual({ ok: false, errors: [{ path: "arguments.count", message }] });
  });

  it.each([
    ["-1.5e3", -1500],
    ["+.5", 0.5],
    ["1.", 1],
    ["-0", -0],
  ])("reads %j as a number", (input, expected) => {
    const result = toArguments(
      node,
      object({ name: text("string", ""), count: text("number", "1"), payload: text("json", "1"), ratio: text("number", input) }),
    );
    expect(result).toEqual({ ok: true, args: { name: "", count: 1, payload: 1, ratio: expected } });
  });

  it("reports bad JSON, blank required JSON and every other error at once, with paths", () => {
    const value = object({
      name: text("string", "x"),
      count: text("number", "1"),
      payload: text("json", "{ nope"),
      tags: { kind: "array", items: [text("number", "1"), text("number", "x")] },
      "with space": text("string", "yes"),
    });
    const result = toArguments(node, value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(["arguments.payload", "arguments.tags[1]", 'arguments["with space"]']);
    expect(result.errors[0]?.message).toMatch(/^Not valid JSON: /);
    expect(result.errors[2]?.message).toBe("Holds a string value where the schema expects a boolean.");
    expect(toArguments(node, object({ name: text("string", ""), count: text("number", "1"), payload: text("json", " ") }))).toEqual({
      ok: false,
      errors: [{ path: "arguments.payload", message: "Enter a JSON value." }],
    });
  });

  it("sends null for a nullable field set to null, and JSON typed into any field", () => {
    const value = object({ name: text("json", '"from json"'), count: text("json", "7"), payload: text("json", "null"), note: { kind: "null" } });
    expect(toArguments(node, value)).toEqual({ ok: true, args: { name: "from json", count: 7, payload: null, note: null } });
  });

  it("writes __proto__ and constructor as own keys", () => {
    const props = buildFormModel(fixture("odd names!", "props"));
    const result = toArguments(props, fromArguments(props, JSON.parse('{"__proto__":"p","constructor":"c","123":"n","with space":"s"}')));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.args)).toBe(Object.prototype);
    expect(JSON.stringify(result.args)).toBe('{"123":"n","with space":"s","__proto__":"p","constructor":"c"}');
  });
});

describe("isBlank", () => {
  it("counts empty text, no choice and all-blank objects as blank, never booleans or lists", () => {
    const blank: FormValue[] = [text("string", ""), text("number", " "), text("json", ""), { kind: "enum", index: -1 }, object({ a: text("string", "") })];
    const filled: FormValue[] = [text("string", " "), { kind: "boolean", value: false }, { kind: "null" }, { kind: "array", items: [] }, object({}, { x: 1 })];
    expect(blank.map(isBlank)).toEqual([true, true, true, true, true]);
    expect(filled.map(isBlank)).toEqual([false, false, false, false, false]);
  });
});

describe("fromArguments round trips on adversarial schemas", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["nullable", fixture("shapes", "nullable"), { a: null, b: "x", c: { x: 1 }, d: [1.5, -2], e: null, f: true }],
    ["nullable, set", fixture("shapes", "nullable"), { a: "a", c: null, d: null, e: "e", f: "text" }],
    [
      "literals",
      fixture("shapes", "literals"),
      { mixed_enum: { k: "v" }, const_obj: { mode: "fast", level: 2 }, neg: -1.5, with_default: { a: 4 }, fmt: "2024-01-01T00:00:00Z" },
    ],
    [
      "collections",
      fixture("shapes", "collections"),
      {
        pair: ["a", 1],
        matrix: [[1, 2], [], [3]],
        labels: { x: "y" },
        mixed: { known: 1, other: "kept" },
        headers: { "x-a": "b" },
        unions_in_arrays: ["s", 2],
      },
    ],
    [
      "combinators",
      fixture("shapes", "combinators"),
      { shape: { kind: "circle", radius: 2 }, merged: { id: "i", extra: false }, narrowed: "a@b.c", either: { a: "a" } },
    ],
    ["tree", fixture("recursive", "tree"), { name: "root", children: [{ name: "kid", children: [{ name: "grandkid" }] }] }],
    ["cycle", fixture("recursive", "cycle"), { a: { label: "A", b: { weight: 2, a: { label: "again" } } } }],
    ["boolean schemas", fixture("shapes", "boolean_props"), { anything: [1, "two"], blank: { free: true } }],
    ["empty root", fixture("shapes", "empty"), { whatever: [1] }],
    ["root true", true, { a: 1 }],
  ];
  it.each(cases)("%s", (_name, schema, args) => {
    expect(roundTrip(buildFormModel(schema), args)).toEqual(args);
  });

  it("keeps values the form cannot show (wrong types, outside the enum, undeclared keys, huge integers) as JSON", () => {
    const node = buildFormModel({
      type: "object",
      properties: { n: { type: "integer" }, e: { enum: ["a"] }, s: { type: "string" }, o: { type: "object", properties: { x: { type: "number" } } } },
    });
    const args = { n: 1.5, e: "b", s: 5, o: "not an object", big: 2 ** 60, extra: { deep: [null] } };
    const value = fromArguments(node, args);
    expect(value).toEqual(
      object(
        { n: text("json", "1.5"), e: text("json", '"b"'), s: text("json", "5"), o: text("json", '"not an object"') },
        { big: 2 ** 60, extra: { deep: [null] } },
      ),
    );
    expect(roundTrip(node, args)).toEqual(args);
    expect(roundTrip(buildFormModel({ type: "object", properties: { id: { type: "integer" } } }), { id: 2 ** 60 })).toEqual({ id: 2 ** 60 });
  });

  it("shows no arguments as an empty form", () => {
    const node = buildFormModel({ type: "object", properties: { a: { type: "string" } } });
    expect(fromArguments(node, undefined)).toEqual(object({}));
    expect(toArguments(node, fromArguments(node, undefined))).toEqual({ ok: true, args: {} });
  });
});
