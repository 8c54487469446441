import { readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { buildFormModel, type FormNode } from "@/lib/forms";
import { listDemoTools } from "./demo-tools";

type FixtureTool = { name: string; inputSchema: Record<string, unknown> };
const adversarial = JSON.parse(readFileSync("tests/fixtures/schemas/adversarial.json", "utf8")) as Record<string, FixtureTool[]>;
function fixture(group: string, name: string): Record<string, unknown> {
  const tool = adversarial[group]?.find((t) => t.name === name);
  if (!tool) throw new Error(`no fixture ${group}/${name}`);
  return tool.inputSchema;
}

/** A compact outline of a model: kinds by path, json nodes with their reason's first words. */
function outline(node: FormNode, path = ""): string[] {
  const self = node.kind === "json" ? `json(${node.reason.split(":")[0]})` : node.kind;
  const line = `${path || "."} ${self}${node.nullable ? "?" : ""}`;
  if (node.kind === "object") return [line, ...node.fields.flatMap((f) => outline(f.node, `${path}.${f.key}${f.required ? "" : "?"}`))];
  if (node.kind === "array") return [line, ...outline(node.item, `${path}[]`)];
  return [line];
}

function field(node: FormNode, key: string): FormNode {
  if (node.kind !== "object") throw new Error(`not an object: ${node.kind}`);
  const found = node.fields.find((f) => f.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found.node;
}

describe("buildFormModel on the demo servers' schemas", () => {
  let tools: Map<string, Tool>;
  beforeAll(async () => {
    tools = await listDemoTools();
  });
  const model = (name: string) => buildFormModel(tools.get(name)?.inputSchema);

  it("builds add_to_cart exactly", () => {
    expect(model("store/add_to_cart")).toEqual({
      kind: "object",
      fields: [
        {
          key: "cartId",
          required: true,
          description: "Cart id from create_cart.",
          node: { kind: "string", minLength: 1, maxLength: 64, description: "Cart id from create_cart." },
        },
        {
          key: "itemId",
          required: true,
          description: "Menu item id from get_menu.",
          node: { kind: "string", minLength: 1, maxLength: 64, description: "Menu item id from get_menu." },
        },
        {
          key: "quantity",
          required: false,
          description: "How many to add (1–20, default 1).",
          node: { kind: "number", integer: true, min: 1, max: 20, default: 1, description: "How many to add (1–20, default 1)." },
        },
      ],
    });
  });

  it("shows enums as choices and zod's positive() as an exclusive minimum", () => {
    const quote = model("shipping/get_quote");
    expect(field(quote, "carrier")).toMatchObject({
      kind: "enum",
      options: [{ label: "postal", value: "postal" }, { label: "parcelnet", value: "parcelnet" }, {}, {}, {}],
    });
    expect(field(field(quote, "dimensionsCm"), "length")).toEqual({
      kind: "number",
      integer: false,
      min: 0,
      exclusiveMin: true,
      max: 400,
      description: "Length in centimetres.",
    });
    expect(field(model("lab/protocol_error"), "code")).toMatchObject({ kind: "enum", options: [{ label: "-32600", value: -32600 }, {}, {}, {}, {}] });
  });

  it("outlines every demo tool, with JSON only where the schema allows anything or several shapes", () => {
    const outlines = Object.fromEntries([...tools].map(([name, tool]) => [name, outline(buildFormModel(tool.inputSchema)).join(", ")]));
    expect(outlines).toEqual({
      "shipping/list_carriers": ". object",
      "shipping/list_shipments": ". object, .year? number",
      "shipping/get_customs_guide": ". object, .destination enum",
      "shipping/get_quote":
        ". object, .carrier enum, .origin enum, .destination enum, .weightKg number, .dimensionsCm? object, .dimensionsCm?.length number, .dimensionsCm?.width number, .dimensionsCm?.height number",
      "shipping/estimate_delivery": ". object, .carrier enum, .origin enum, .destination enum",
      "shipping/apply_surcharges":
        ". object, .carrier enum, .price number, .currency enum, .remoteArea? boolean, .dimensionsCm? object, .dimensionsCm?.length number, .dimensionsCm?.width number, .dimensionsCm?.height number",
      "news/web_search": expect.any(String) as string,
      "store/search_stores": ". object, .cuisine? enum, .near string, .openOnly? boolean",
      "store/get_menu": ". object, .storeId string",
      "store/create_cart": ". object, .storeId string",
      "store/add_to_cart": ". object, .cartId string, .itemId string, .quantity? number",
      "store/validate_order": ". object, .cartId string",
      "store/place_order": ". object, .cartId string, .deliveryAddress string, .paymentMethod enum, .tip? number",
      "lab/echo": ". object, .message string, .data? json(The schema does not say what the value is)",
      "lab/sleep": ". object, .ms number",
      "lab/fail": ". object, .message string",
      "lab/protocol_error": ". object, .message? string, .code? enum",
      "lab/big": ". object, .kb number",
      "lab/flaky": ". object, .seed json(The schema combines several shapes (anyOf)), .rate number, .attempt? number",
    });
    expect(outlines["news/web_search"]).not.toContain("json");
  });
});

describe("buildFormModel on adversarial schemas", () => {
  it("treats a missing schema as no arguments and a non-schema as JSON with a reason", () => {
    expect(buildFormModel(undefined)).toEqual({ kind: "object", fields: [] });
    for (const bad of [null, "object", 42, [{ type: "object" }]]) {
      expect(buildFormModel(bad)).toEqual({ kind: "json", reason: "The input schema is not a JSON Schema object: edit the arguments as JSON." });
    }
    // A tool without arguments often sends a bare object type: an empty form, not a JSON editor.
    expect(buildFormModel({ type: "object" })).toEqual({ kind: "object", fields: [] });
    expect(buildFormModel({ type: "object", additionalProperties: false })).toEqual({ kind: "object", fields: [] });
  });

  it("turns boolean and empty schemas into JSON with a reason", () => {
    expect(buildFormModel(true)).toEqual({ kind: "json", reason: "The schema is `true`: any JSON value is accepted." });
    expect(buildFormModel(false)).toEqual({ kind: "json", reason: "The schema is `false`: no value is accepted, so any call will be refused." });
    expect(buildFormModel(fixture("shapes", "empty"))).toEqual({
      kind: "json",
      reason: "The schema does not say what the value is: any JSON value is accepted.",
    });
    expect(outline(buildFormModel(fixture("shapes", "boolean_props")))).toEqual([
      ". object",
      ".anything json(The schema is `true`)",
      ".nothing? json(The schema is `false`)",
      ".blank? json(The schema does not say what the value is)",
    ]);
  });

  it("reads every way of saying nullable", () => {
    expect(outline(buildFormModel(fixture("shapes", "nullable")))).toEqual([
      ". object",
      ".a? string?",
      ".b? string?",
      ".c? object?",
      ".c?.x number",
      ".d? array?",
      ".d?[] number",
      ".e? string?",
      ".f? json(The value may be any of several types (string, number, boolean))",
    ]);
    expect(buildFormModel({ type: "null" })).toEqual({ kind: "enum", options: [{ label: "null", value: null }] });
  });

  it("turns const into a one-option enum and labels non-string values as JSON", () => {
    const literals = buildFormModel(fixture("shapes", "literals"));
    expect(field(literals, "mixed_enum")).toEqual({
      kind: "enum",
      options: [
        { label: "a", value: "a" },
        { label: "1", value: 1 },
        { label: "true", value: true },
        { label: "null", value: null },
        { label: '{"k":"v"}', value: { k: "v" } },
        { label: "[1,2]", value: [1, 2] },
      ],
    });
    expect(field(literals, "const_obj")).toEqual({ kind: "enum", options: [{ label: '{"mode":"fast","level":2}', value: { mode: "fast", level: 2 } }] });
    expect(field(literals, "neg")).toEqual({ kind: "enum", options: [{ label: "-1.5", value: -1.5 }] });
    expect(field(literals, "empty_enum")).toMatchObject({ kind: "json", reason: "The enum lists no values, so nothing can be chosen." });
    expect(field(literals, "with_default")).toMatchObject({ kind: "object", default: { a: 1 } });
    expect(field(literals, "fmt")).toEqual({ kind: "string", format: "date-time", description: "When" });
  });

  it("labels a union of constants by their titles, and enumNames by position", () => {
    const schema = { oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }, { type: "null" }], description: "Size" };
    expect(buildFormModel(schema)).toEqual({
      kind: "enum",
      nullable: true,
      description: "Size",
      options: [
        { label: "Small", value: "s" },
        { label: "Large", value: "l" },
      ],
    });
    expect(buildFormModel({ enum: [1, 2], enumNames: ["One", "Two"] })).toMatchObject({
      options: [
        { label: "One", value: 1 },
        { label: "Two", value: 2 },
      ],
    });
    expect(buildFormModel({ enum: ["a", "a", "b"] })).toMatchObject({ options: [{ value: "a" }, { value: "b" }] });
  });

  it("follows internal references once per path and stops at recursion", () => {
    expect(outline(buildFormModel(fixture("recursive", "tree")))).toEqual([
      ". object",
      ".name string",
      ".children? array",
      ".children?[] json(Recursive reference #)",
    ]);
    expect(outline(buildFormModel(fixture("recursive", "cycle")))).toEqual([
      ". object",
      ".a? object",
      ".a?.b? object",
      ".a?.b?.a? json(Recursive reference #/$defs/A)",
      ".a?.b?.weight? number",
      ".a?.label? string",
    ]);
    expect(outline(buildFormModel(fixture("recursive", "self-ref")))).toEqual([". object", ".loop? json(Recursive reference #/definitions/Loop)"]);
  });

  it("explains references it cannot follow", () => {
    const model = buildFormModel(fixture("recursive", "refs"));
    expect(field(model, "remote")).toMatchObject({
      kind: "json",
      reason: "The reference https://example.com/schema.json points outside this schema and is not followed: edit this part as JSON.",
    });
    expect(field(model, "missing")).toMatchObject({
      kind: "json",
      reason: "The reference #/definitions/Nope leads nowhere in this schema: edit this part as JSON.",
    });
  });

  it("lets keywords beside a $ref refine the target, and resolves escaped pointers", () => {
    const schema = {
      type: "object",
      properties: { when: { $ref: "#/$defs/a~1b", description: "Local description" }, anything: { $ref: "#/$defs/any", title: "Anything" } },
      $defs: { "a/b": { type: "string", format: "date", description: "Shared description" }, any: true },
    };
    const model = buildFormModel(schema);
    expect(field(model, "when")).toEqual({ kind: "string", format: "date", description: "Local description" });
    expect(field(model, "anything")).toEqual({ kind: "json", title: "Anything", reason: "The schema is `true`: any JSON value is accepted." });
  });

  it("reduces anyOf and allOf when they are a simple case, and falls back to JSON when not", () => {
    expect(outline(buildFormModel(fixture("shapes", "combinators")))).toEqual([
      ". object",
      ".shape? json(The schema combines several shapes (oneOf))",
      ".merged? object",
      ".merged?.id string",
      ".merged?.extra? boolean",
      ".clash? json(The schema combines several shapes (allOf))",
      ".narrowed? string",
      ".either? object",
      ".either?.a? string",
      ".either?.b? string",
      ".typed_branches? json(The schema combines several shapes (anyOf))",
    ]);
    const wrapped = {
      allOf: [{ $ref: "#/definitions/Point" }],
      description: "Where",
      definitions: { Point: { type: "object", properties: { x: { type: "number" } } } },
    };
    expect(buildFormModel(wrapped)).toMatchObject({ kind: "object", description: "Where", fields: [{ key: "x", node: { kind: "number" } }] });
  });

  it("shows tuples, free-form maps and pattern keys as JSON, and nested arrays as arrays", () => {
    expect(outline(buildFormModel(fixture("shapes", "collections")))).toEqual([
      ". object",
      ".pair? json(A tuple (a fixed value per position))",
      ".open_tuple? json(A tuple (a fixed value per position))",
      ".draft7_tuple? json(A tuple (a fixed value per position))",
      ".untyped_list? json(The items may be any JSON)",
      ".matrix? array",
      ".matrix?[] array",
      ".matrix?[][] number",
      ".labels? json(Its keys are free-form (additionalProperties))",
      ".anything? json(The object declares no properties)",
      ".closed? object",
      ".mixed? object",
      ".mixed?.known number",
      ".mixed?.maybe? boolean",
      ".headers? json(Its keys follow patterns (patternProperties))",
      ".unions_in_arrays? array",
      ".unions_in_arrays?[] json(The value may be any of several types (string, number))",
    ]);
  });

  it("reads draft-4 boolean exclusive bounds", () => {
    expect(buildFormModel({ type: "integer", minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false })).toEqual({
      kind: "number",
      integer: true,
      min: 1,
      exclusiveMin: true,
      max: 9,
    });
  });

  it("keeps odd property names as they are, including __proto__ and constructor", () => {
    const model = buildFormModel(fixture("odd names!", "props"));
    if (model.kind !== "object") throw new Error("expected an object");
    expect(model.fields.map((f) => [f.key, f.node.kind, f.required])).toContainEqual(["__proto__", "string", false]);
    expect(model.fields.map((f) => f.key)).toEqual([
      "123",
      "with space",
      "with-dash",
      'quote"d',
      "back\\slash",
      "",
      "__proto__",
      "constructor",
      "default",
      "ünï",
      "line\nbreak",
    ]);
  });

  it("bounds depth and size, even for definitions that multiply on every use", () => {
    expect(outline(buildFormModel(fixture("huge", "deep"))).at(-1)).toBe(
      ".root?.level1.level2.level3.level4.level5.level6.level7.level8.level9 json(Nested too deeply for a form)",
    );
    // Each level uses the next twice: expanding every use would make 2^40 nodes.
    const $defs: Record<string, unknown> = { L40: { type: "string" } };
    for (let i = 0; i < 40; i++) $defs[`L${i}`] = { type: "object", properties: { left: { $ref: `#/$defs/L${i + 1}` }, right: { $ref: `#/$defs/L${i + 1}` } } };
    const model = buildFormModel({ type: "object", properties: { top: { $ref: "#/$defs/L0" } }, $defs });
    const lines = outline(model);
    expect(lines.length).toBeLessThan(2_100);
    expect(lines.some((l) => l.includes("json(Nested too deeply for a form)"))).toBe(true);
    const wide = buildFormModel({ type: "object", properties: Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`p${i}`, { type: "string" }])) });
    expect(outline(wide).filter((l) => l.includes("json(The schema is too large for a form)"))).toHaveLength(501);
  });
});
