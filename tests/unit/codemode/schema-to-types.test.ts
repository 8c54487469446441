/**
 * JSON Schema → TypeScript, construct by construct, printed inline (no shared names).
 * Every expected string is the type a TypeScript author would write for that schema.
 */
import { describe, expect, it } from "vitest";
import { schemaToType, type ConvertLimits } from "../../../lib/codemode/schema-to-types";
import { printType } from "../../../lib/codemode/ts-type";

const LIMITS: ConvertLimits = { maxDepth: 16, maxEnumMembers: 64, maxNodes: 20_000 };

function ts(schema: unknown, limits: Partial<ConvertLimits> = {}): string {
  return printType(schemaToType(schema, { ...LIMITS, ...limits }, { name: "root", strength: 0 }), () => undefined);
}

describe("schemaToType", () => {
  it("maps primitive types", () => {
    expect(ts({ type: "string" })).toBe("string");
    expect(ts({ type: "integer" })).toBe("number");
    expect(ts({ type: "number" })).toBe("number");
    expect(ts({ type: "boolean" })).toBe("boolean");
    expect(ts({ type: "null" })).toBe("null");
    expect(ts({ type: "martian" })).toBe("unknown");
  });

  it("types boolean and empty schemas", () => {
    expect(ts(true)).toBe("unknown");
    expect(ts(false)).toBe("never");
    expect(ts({})).toBe("unknown");
    expect(ts({ description: "only words" })).toBe("unknown");
    expect(ts(null)).toBe("unknown");
    expect(ts("string")).toBe("unknown");
  });

  it("types objects with required and optional members, in schema order", () => {
    const schema = { type: "object", properties: { b: { type: "string" }, a: { type: "number" } }, required: ["a"] };
    expect(ts(schema)).toBe("{b?:string;a:number}");
  });

  it("keeps a required name that has no property schema", () => {
    expect(ts({ type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] })).toBe("{a:string;b:unknown}");
  });

  it("infers object and array from their keywords when type is missing", () => {
    expect(ts({ properties: { a: { type: "string" } } })).toBe("{a?:string}");
    expect(ts({ items: { type: "string" } })).toBe("string[]");
  });

  it("puts descriptions, defaults, formats and deprecation in the member's JSDoc", () => {
    const schema = {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time", description: "Start time", default: "now" },
        old: { type: "boolean", deprecated: true },
      },
    };
    expect(ts(schema)).toBe('{\n/** Start time @default "now" @format date-time */\nwhen?:string;\n/** @deprecated */\nold?:boolean;\n}');
  });

  it("escapes */ in descriptions and normalises their line endings", () => {
    const schema = { type: "object", properties: { a: { type: "string", description: "ends */ here\r\nnext  \r\n\r\n\r\nlast " } } };
    expect(ts(schema)).toBe("{\n/** ends *\\/ here\nnext\n\nlast */\na?:string;\n}");
  });

  it("quotes member names that are not identifiers", () => {
    const schema = {
      type: "object",
      properties: { "a-b": { type: "string" }, "x y": { type: "string" }, 'q"': { type: "string" }, $ok: { type: "string" }, _1: { type: "string" } },
    };
    expect(ts(schema)).toBe('{"a-b"?:string;"x y"?:string;"q\\""?:string;$ok?:string;_1?:string}');
  });

  it("types arrays, nested arrays and arrays of unions", () => {
    expect(ts({ type: "array", items: { type: "array", items: { type: "number" } } })).toBe("number[][]");
    expect(ts({ type: "array", items: { type: ["string", "number"] } })).toBe("(string|number)[]");
    expect(ts({ type: "array" })).toBe("unknown[]");
  });

  it("types tuples in 2020-12 and draft-07 form", () => {
    expect(ts({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false })).toBe("[string,number]");
    expect(ts({ type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" } })).toBe("[string,...boolean[]]");
    expect(ts({ type: "array", items: [{ type: "integer" }], additionalItems: { anyOf: [{ type: "string" }, { type: "null" }] } })).toBe(
      "[number,...(string|null)[]]",
    );
    expect(ts({ type: "array", items: [{ type: "integer" }, { type: "string" }] })).toBe("[number,string]");
  });

  it("types enum and const as literals", () => {
    expect(ts({ type: "string", enum: ["a", "b"] })).toBe('"a"|"b"');
    expect(ts({ enum: ["a", 1, true, null, { k: "v" }, [1, 2]] })).toBe('"a"|1|true|null|{"k":"v"}|[1,2]');
    expect(ts({ enum: [] })).toBe("never");
    expect(ts({ const: "x" })).toBe('"x"');
    expect(ts({ const: -1.5 })).toBe("-1.5");
    expect(ts({ const: null })).toBe("null");
    expect(ts({ const: "a\u2028b" })).toBe('"a\\u2028b"');
  });

  it("types a huge enum by its base type", () => {
    const values = Array.from({ length: 65 }, (_, i) => `v${i}`);
    expect(ts({ type: "string", enum: values })).toBe("string");
    expect(ts({ enum: [...values, 1] })).toBe("string|number");
    expect(ts({ type: "string", enum: values }, { maxEnumMembers: 100 })).toContain('"v64"');
  });

  it("notes a huge enum in the member's JSDoc", () => {
    const values = Array.from({ length: 65 }, (_, i) => `v${i}`);
    const schema = { type: "object", properties: { code: { type: "string", enum: values, description: "Code" } } };
    expect(ts(schema)).toBe('{\n/** Code One of 65 values, e.g. "v0", "v1", "v2". */\ncode?:string;\n}');
  });

  it("types nullable as type arrays and as OpenAPI nullable", () => {
    expect(ts({ type: ["string", "null"] })).toBe("string|null");
    expect(ts({ type: "string", nullable: true })).toBe("string|null");
    expect(ts({ type: ["object", "null"], properties: { x: { type: "integer" } }, required: ["x"] })).toBe("{x:number}|null");
    expect(ts({ type: ["array", "null"], items: { type: "number" } })).toBe("number[]|null");
    expect(ts({ anyOf: [{ type: "string" }, { type: "null" }], nullable: true })).toBe("string|null");
  });

  it("types anyOf and oneOf as unions, allOf as an intersection", () => {
    expect(ts({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string|number");
    expect(ts({ oneOf: [{ const: "a" }, { const: "b" }, { const: "a" }] })).toBe('"a"|"b"');
    expect(ts({ anyOf: [{ type: "string" }, {}] })).toBe("unknown");
    const a = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
    expect(ts({ allOf: [a, { type: "object", properties: { n: { type: "number" } } }] })).toBe("{id:string;n?:number}");
    expect(ts({ allOf: [a, { type: "object", properties: { id: { type: "number" } } }] })).toBe("{id:string}&{id?:number}");
    expect(ts({ allOf: [{ type: "string" }, { type: "number" }] })).toBe("string&number");
    expect(ts({ allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "string" }] })).toBe("(string|number)&string");
  });

  it("drops a base that only repeats `type`, keeps one that says more", () => {
    const branches = [
      { properties: { p: { type: "string" } }, required: ["p"] },
      { properties: { q: { type: "number" } }, required: ["q"] },
    ];
    expect(ts({ type: "object", anyOf: branches })).toBe("{p:string}|{q:number}");
    expect(ts({ type: "string", anyOf: [{ format: "email" }, { format: "uri" }] })).toBe("string");
    const either = { type: "object", properties: { a: { type: "string" } }, anyOf: [{ required: ["a"] }, { required: ["b"] }] };
    expect(ts(either)).toBe("{a?:string}&({a:unknown}|{b:unknown})");
  });

  it("types additionalProperties and patternProperties as index signatures", () => {
    expect(ts({ type: "object", additionalProperties: { type: "string" } })).toBe("Record<string,string>");
    expect(ts({ type: "object", additionalProperties: true })).toBe("Record<string,unknown>");
    expect(ts({ type: "object" })).toBe("Record<string,unknown>");
    expect(ts({ type: "object", additionalProperties: false })).toBe("Record<string,never>");
    expect(ts({ type: "object", properties: { a: { type: "number" } }, required: ["a"], additionalProperties: { type: "string" } })).toBe(
      "{a:number;[key:string]:string|number}",
    );
    // An optional member needs undefined in the index type, or TypeScript rejects the type.
    expect(ts({ type: "object", properties: { a: { type: "number" } }, additionalProperties: { type: "string" } })).toBe(
      "{a?:number;[key:string]:string|number|undefined}",
    );
    expect(ts({ type: "object", patternProperties: { "^x-": { type: "string" }, "^a*/": { type: "number" } } })).toBe(
      "{\n/** keys matching /^x-/ or /^a*\\// */\n[key:string]:string|number;\n}",
    );
  });

  it("resolves internal $ref through $defs, definitions and escaped pointers", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" }, b: { $ref: "#/definitions/B" }, c: { $ref: "#/definitions/c~1d" }, d: { $ref: "#/$defs/A%20B" } },
      $defs: { A: { type: "string" }, "A B": { type: "boolean" } },
      definitions: { B: { type: "number" }, "c/d": { type: "null" } },
    };
    expect(ts(schema)).toBe("{a?:string;b?:number;c?:null;d?:boolean}");
  });

  it("types external and unresolvable refs as unknown", () => {
    const schema = { type: "object", properties: { a: { $ref: "https://example.com/x.json" }, b: { $ref: "#/$defs/Nope" }, c: { $ref: "#/properties/zz/0" } } };
    expect(ts(schema)).toBe("{a?:unknown;b?:unknown;c?:unknown}");
  });

  it("applies keywords beside $ref", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/A", properties: { extra: { type: "boolean" } } } },
      $defs: { A: { type: "object", properties: { id: { type: "string" } } } },
    };
    expect(ts(schema)).toBe("{a?:{id?:string;extra?:boolean}}");
  });

  it("stops at recursion with unknown", () => {
    const tree = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, required: ["name"] };
    expect(ts(tree)).toBe("{name:string;children?:unknown[]}");
    const cycle = {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: { A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } }, B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } } },
    };
    expect(ts(cycle)).toBe("{a?:{b?:{a?:unknown}}}");
    expect(ts({ $ref: "#/$defs/L", $defs: { L: { $ref: "#/$defs/L" } } })).toBe("unknown");
  });

  it("caps depth with unknown", () => {
    let schema: object = { type: "string" };
    for (let i = 0; i < 5; i++) schema = { type: "array", items: schema };
    expect(ts(schema)).toBe("string[][][][][]");
    // The root is depth 0: with maxDepth 3, depths 0–3 are typed and depth 4 is unknown.
    expect(ts(schema, { maxDepth: 3 })).toBe("unknown[][][][]");
  });

  it("caps the number of nodes, so exponential $ref fans end", () => {
    // Each level refers to the next twice: 2^30 paths if nothing stopped it.
    const $defs: Record<string, object> = { L30: { type: "string" } };
    for (let i = 0; i < 30; i++) $defs[`L${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } } };
    const started = performance.now();
    const text = ts({ $ref: "#/$defs/L0", $defs }, { maxDepth: 1_000, maxNodes: 500 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(text).toContain("unknown");
  });
});
