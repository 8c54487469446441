/**
 * Declarations: the adversarial catalog pinned by exact text (read and judged right: the
 * recursion guards, odd names quoted or sanitised, `*\/` escaped, every construct typed as
 * a TypeScript author would), plus the rules around it: deterministic order, name mapping
 * and collisions, which shapes get shared names, and subsets for tool search.
 */
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { declarationsFor, generateDeclarations } from "../../../lib/codemode/declarations";
import type { ServerTools, ToolDefinition } from "../../../lib/codemode/types";
import { loadAdversarial, loadCorpus } from "./helpers";

const RECURSIVE = String.raw`declare namespace recursive{
type Point={
/** Latitude in degrees */
lat:number;
/** Longitude in degrees */
lng:number;
}
/** Two definitions that refer to each other.
@returns No output schema: inspect the value before relying on its shape. */
function cycle(input?:{a?:{b?:{a?:unknown;weight?:number};label?:string}}):Promise<unknown>;
/** Shared definitions, a titled shape, an external and a broken $ref.
@returns No output schema: inspect the value before relying on its shape. */
function refs(input:{
/** Start point */
from:Point;
/** A point on the map */
to:Point;
via?:Point[];
remote?:unknown;
missing?:unknown;
slash?:boolean;
}):Promise<unknown>;
/** A definition that is only a $ref to itself.
@returns No output schema: inspect the value before relying on its shape. */
function self_ref(input?:{loop?:unknown}):Promise<unknown>;
/** A tree whose children $ref the root.
@returns No output schema: inspect the value before relying on its shape. */
function tree(input:{name:string;children?:unknown[]}):Promise<unknown>;
}`;

const ODD_NAMES = String.raw`declare namespace odd_names{
/** Nothing usable.
@returns No output schema: inspect the value before relying on its shape. */
function _():Promise<unknown>;
/** Leading digit.
@returns No output schema: inspect the value before relying on its shape. */
function _2fa():Promise<unknown>;
/** Reserved word.
@returns No output schema: inspect the value before relying on its shape. */
function class_():Promise<unknown>;
/** Accents.
@returns No output schema: inspect the value before relying on its shape. */
function creer():Promise<unknown>;
/** Already an identifier.
@returns No output schema: inspect the value before relying on its shape. */
function get_quote():Promise<unknown>;
/** Space.
@returns No output schema: inspect the value before relying on its shape. */
function get_quote_2():Promise<unknown>;
/** Hyphen.
@returns No output schema: inspect the value before relying on its shape. */
function get_quote_3():Promise<unknown>;
/** Dot.
@returns No output schema: inspect the value before relying on its shape. */
function get_quote_4():Promise<unknown>;
/** Ends a comment early: *\/ and opens one: /* and has "quotes".
Second line.
@returns No output schema: inspect the value before relying on its shape. */
function props(input:{
"123":string;
/** A *\/ sneaky description */
"with space":string;
"with-dash"?:number;
"quote\"d"?:boolean;
"back\\slash"?:string;
/** Empty name */
""?:string;
__proto__?:string;
constructor?:string;
default?:string;
"ünï"?:string;
"line\nbreak"?:string;
}):Promise<unknown>;
}`;

const SHAPES = String.raw`declare namespace shapes{
/** Output schema true. */
function boolean_output():Promise<Record<string,unknown>>;
/** Boolean schemas.
@returns No output schema: inspect the value before relying on its shape. */
function boolean_props(input:{anything:unknown;nothing?:never;blank?:unknown}):Promise<unknown>;
/** Tuples, index signatures.
@returns No output schema: inspect the value before relying on its shape. */
function collections(input?:{pair?:[string,number];open_tuple?:[string,...boolean[]];draft7_tuple?:[number,string,...null[]];untyped_list?:unknown[];matrix?:number[][];labels?:Record<string,string>;anything?:Record<string,unknown>;closed?:Record<string,never>;mixed?:{known:number;maybe?:boolean;[key:string]:string|number|boolean|undefined};headers?:{
/** keys matching /^x-/ or /^n-/ */
[key:string]:string|number;
};unions_in_arrays?:(string|number)[]}):Promise<unknown>;
/** anyOf, oneOf, allOf.
@returns No output schema: inspect the value before relying on its shape. */
function combinators(input?:{shape?:{kind:"circle";radius:number}|{kind:"square";side:number};merged?:{id:string;extra?:boolean};clash?:{id?:string}&{id?:number};narrowed?:string;either?:{a?:string;b?:string}&({a:unknown}|{b:unknown});typed_branches?:{p:string}|{q:number}}):Promise<unknown>;
/** @returns No output schema: inspect the value before relying on its shape. */
function empty(input?:unknown):Promise<unknown>;
/** enum and const. */
function literals(input:{
mixed_enum:"a"|1|true|null|{"k":"v"}|[1,2];
empty_enum?:never;
const_obj?:{"mode":"fast","level":2};
neg?:-1.5;
weird_string?:"line\nbreak \"quoted\" */ \u2028";
/** @default {"a":1} */
with_default?:{
/** @default 1 */
a?:number;
};
/** When @format date-time @deprecated */
fmt?:string;
}):Promise<{ok:true}>;
/** Root is a string schema.
@returns No output schema: inspect the value before relying on its shape. */
function not_an_object_root(input:string):Promise<unknown>;
/** Type arrays and OpenAPI nullable.
@returns No output schema: inspect the value before relying on its shape. */
function nullable(input?:{a?:string|null;b?:string|null;c?:{x:number}|null;d?:number[]|null;e?:string|null;f?:string|number|boolean}):Promise<unknown>;
}`;

const noArgs = { type: "object", properties: {} } as const;

function namespaceText(servers: ServerTools[], namespace: string): string | undefined {
  return generateDeclarations(servers).namespaces.find((n) => n.namespace === namespace)?.text;
}

describe("generateDeclarations on adversarial schemas", () => {
  const adversarial = loadAdversarial();

  it("guards recursion and $ref cycles, shares $defs shapes", () => {
    expect(namespaceText(adversarial, "recursive")).toBe(RECURSIVE);
  });

  it("sanitises tool names and quotes property names", () => {
    expect(namespaceText(adversarial, "odd_names")).toBe(ODD_NAMES);
  });

  it("types every construct", () => {
    expect(namespaceText(adversarial, "shapes")).toBe(SHAPES);
  });

  it("reports every renamed name and every collision", () => {
    const { names, collisions } = generateDeclarations(adversarial);
    expect(collisions).toEqual([
      {
        kind: "server",
        identifier: "my_server",
        resolved: [
          { original: "my server", sanitised: "my_server" },
          { original: "my-server", sanitised: "my_server_2" },
        ],
      },
      {
        kind: "tool",
        server: "odd names!",
        identifier: "get_quote",
        resolved: [
          { original: "get_quote", sanitised: "get_quote" },
          { original: "get quote", sanitised: "get_quote_2" },
          { original: "get-quote", sanitised: "get_quote_3" },
          { original: "get.quote", sanitised: "get_quote_4" },
        ],
      },
    ]);
    const renamed = names.filter((n) => n.original !== n.sanitised).map((n) => `${n.kind}:${n.original}→${n.sanitised}`);
    expect(renamed.sort()).toEqual(
      [
        "server:console→console_",
        "server:my server→my_server",
        "server:my-server→my_server_2",
        "server:odd names!→odd_names",
        "tool:self-ref→self_ref",
        "tool:get-quote→get_quote_3",
        "tool:get.quote→get_quote_4",
        "tool:get quote→get_quote_2",
        "tool:class→class_",
        "tool:2fa→_2fa",
        "tool:créer→creer",
        "tool:🚀→_",
      ].sort(),
    );
    expect(names).toHaveLength(adversarial.length + adversarial.reduce((n, s) => n + s.tools.length, 0));
  });
});

describe("generateDeclarations", () => {
  it("does not depend on the order servers and tools are listed in", () => {
    const corpus = [...loadCorpus(), ...loadAdversarial()];
    const shuffled = [...corpus].reverse().map((s) => ({ ...s, tools: [...s.tools].reverse() }));
    const a = generateDeclarations(corpus);
    const b = generateDeclarations(shuffled);
    expect(b.text).toBe(a.text);
    expect(b.collisions).toEqual(a.collisions);
  });

  it("returns per-namespace and per-tool texts that make up the whole", () => {
    const d = generateDeclarations(loadCorpus());
    expect(d.namespaces.map((n) => n.namespace)).toEqual(["everything", "filesystem", "memory", "sequential_thinking"]);
    for (const ns of d.namespaces) {
      for (const tool of ns.tools) expect(ns.text).toContain(tool.text);
      for (const type of ns.types) expect(ns.text).toContain(type.text);
    }
    const memory = d.namespaces.find((n) => n.namespace === "memory");
    expect(memory?.types.map((t) => [t.name, t.references])).toEqual([
      ["Entity", []],
      ["Relation", []],
      ["EntitiesRelations", ["Entity", "Relation"]],
    ]);
    const readGraph = memory?.tools.find((t) => t.name === "read_graph");
    expect(readGraph).toMatchObject({ server: "memory", tool: "read_graph", hasOutputSchema: true, types: ["Entity", "Relation", "EntitiesRelations"] });
    const everything = d.namespaces.find((n) => n.namespace === "everything");
    expect(everything?.tools.find((t) => t.tool === "get-env")).toMatchObject({ name: "get_env", hasOutputSchema: false, types: [] });
  });

  it("names a repeated shape once, and not the shapes only it contains", () => {
    const item = {
      type: "object",
      properties: {
        sku: { type: "string", description: "Stock keeping unit" },
        quantity: { type: "integer", description: "How many" },
        options: { type: "object", properties: { gift: { type: "boolean", description: "Wrap it" } } },
      },
      required: ["sku", "quantity"],
    };
    const tools: ToolDefinition[] = [
      { name: "add", inputSchema: { type: "object", properties: { item }, required: ["item"] } },
      { name: "remove", inputSchema: { type: "object", properties: { item }, required: ["item"] } },
      { name: "list", inputSchema: noArgs, outputSchema: { type: "object", properties: { items: { type: "array", items: item } }, required: ["items"] } },
    ];
    expect(generateDeclarations([{ name: "cart", tools }]).text).toBe(
      [
        "declare namespace cart{",
        "type Item={",
        "/** Stock keeping unit */",
        "sku:string;",
        "/** How many */",
        "quantity:number;",
        "options?:{",
        "/** Wrap it */",
        "gift?:boolean;",
        "};",
        "}",
        "/** @returns No output schema: inspect the value before relying on its shape. */",
        "function add(input:{item:Item}):Promise<unknown>;",
        "function list():Promise<{items:Item[]}>;",
        "/** @returns No output schema: inspect the value before relying on its shape. */",
        "function remove(input:{item:Item}):Promise<unknown>;",
        "}",
      ].join("\n"),
    );
  });

  it("names a repeated enum once, after the properties it types, and counts an enum inside a named shape once", () => {
    const country = { type: "string", enum: ["DE", "FR", "NL", "ES", "IT", "PL", "CH", "GB", "US"] };
    const carrier = { type: "string", enum: ["postal", "parcelnet", "swiftair", "cargoline"] };
    const size = { type: "string", enum: ["small", "medium", "large_and_heavy", "oversized_freight"] };
    // `size` is in both tools' input, but inside Parcel, which is printed once: it stays inline.
    const parcel = { type: "object", properties: { size, weightKg: { type: "number" } } };
    const tools: ToolDefinition[] = [
      {
        name: "quote",
        description: "q",
        inputSchema: { type: "object", properties: { carrier, origin: country, destination: country, parcel }, required: ["carrier"] },
      },
      {
        name: "eta",
        description: "e",
        inputSchema: { type: "object", properties: { carrier, origin: country, destination: country, parcel } },
        outputSchema: { type: "object", properties: { carriers: { type: "array", items: carrier }, short: { type: "string", enum: ["a", "b"] } } },
      },
      { name: "label", description: "l", inputSchema: { type: "object", properties: { id: carrier, short: { type: "string", enum: ["a", "b"] } } } },
    ];
    const declarations = generateDeclarations([{ name: "ship", tools }]);
    expect(declarations.text).toBe(
      [
        "declare namespace ship{",
        'type Carrier="postal"|"parcelnet"|"swiftair"|"cargoline"',
        'type OriginOrDestination="DE"|"FR"|"NL"|"ES"|"IT"|"PL"|"CH"|"GB"|"US"',
        'type Parcel={size?:"small"|"medium"|"large_and_heavy"|"oversized_freight";weightKg?:number}',
        "/** e */",
        'function eta(input?:{carrier?:Carrier;origin?:OriginOrDestination;destination?:OriginOrDestination;parcel?:Parcel}):Promise<{carriers?:Carrier[];short?:"a"|"b"}>;',
        "/** l",
        "@returns No output schema: inspect the value before relying on its shape. */",
        'function label(input?:{id?:Carrier;short?:"a"|"b"}):Promise<unknown>;',
        "/** q",
        "@returns No output schema: inspect the value before relying on its shape. */",
        "function quote(input:{carrier:Carrier;origin?:OriginOrDestination;destination?:OriginOrDestination;parcel?:Parcel}):Promise<unknown>;",
        "}",
      ].join("\n"),
    );
    // A tool search result brings the enums its tool needs, and only those.
    expect(declarationsFor(declarations, [{ namespace: "ship", name: "label" }])).toBe(
      [
        "declare namespace ship{",
        'type Carrier="postal"|"parcelnet"|"swiftair"|"cargoline"',
        "/** l",
        "@returns No output schema: inspect the value before relying on its shape. */",
        'function label(input?:{id?:Carrier;short?:"a"|"b"}):Promise<unknown>;',
        "}",
      ].join("\n"),
    );
  });

  it("keeps small repeated shapes inline", () => {
    const point = { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] };
    const tools: ToolDefinition[] = [{ name: "a", description: "A", inputSchema: { type: "object", properties: { p: point, q: point } }, outputSchema: point }];
    expect(generateDeclarations([{ name: "geo", tools }]).text).toBe(
      "declare namespace geo{\n/** A */\nfunction a(input?:{p?:{x:number;y:number};q?:{x:number;y:number}}):Promise<{x:number;y:number}>;\n}",
    );
  });

  it("never names a shape Promise or Record, which the declarations themselves use", () => {
    const shape = { type: "object", title: "Promise", properties: { long_property_name_one: { type: "string" }, long_property_name_two: { type: "string" } } };
    const record = { ...shape, title: "Record", properties: { ...shape.properties, three: { type: "number" } } };
    const tools: ToolDefinition[] = [
      { name: "a", description: "a", inputSchema: { type: "object", properties: { r: record } }, outputSchema: shape },
      { name: "b", description: "b", inputSchema: { type: "object", properties: { r: record, z: { type: "string" } } }, outputSchema: shape },
    ];
    const text = generateDeclarations([{ name: "n", tools }]).text;
    expect(text).toContain("type Promise2=");
    expect(text).toContain("type Record2=");
    expect(text).toContain("):Promise<Promise2>;");
  });

  it("omits the argument of a tool that takes none and makes all-optional ones optional", () => {
    const tools: ToolDefinition[] = [
      { name: "none", description: "d", inputSchema: noArgs, outputSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
      { name: "optional", description: "d", inputSchema: { type: "object", properties: { a: { type: "string" } } }, outputSchema: { type: "object" } },
      {
        name: "required",
        description: "d",
        inputSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        outputSchema: { type: "object" },
      },
      { name: "open", description: "d", inputSchema: { type: "object", additionalProperties: { type: "number" } }, outputSchema: { type: "object" } },
    ];
    expect(generateDeclarations([{ name: "args", tools }]).text).toBe(
      [
        "declare namespace args{",
        "/** d */",
        "function none():Promise<{ok?:boolean}>;",
        "/** d */",
        "function open(input?:Record<string,number>):Promise<Record<string,unknown>>;",
        "/** d */",
        "function optional(input?:{a?:string}):Promise<Record<string,unknown>>;",
        "/** d */",
        "function required(input:{a:string}):Promise<Record<string,unknown>>;",
        "}",
      ].join("\n"),
    );
  });

  it("uses the title when there is no description", () => {
    const tools: ToolDefinition[] = [{ name: "t", title: "Titled tool", inputSchema: noArgs }];
    expect(generateDeclarations([{ name: "s", tools }]).text).toBe(
      "declare namespace s{\n/** Titled tool\n@returns No output schema: inspect the value before relying on its shape. */\nfunction t():Promise<unknown>;\n}",
    );
  });

  it("gives an empty text for no servers", () => {
    expect(generateDeclarations([])).toEqual({ text: "", namespaces: [], names: [], collisions: [] });
  });

  it("accepts the SDK's Tool objects as they are", () => {
    // Compile-time check (tsc -p .): the SDK's Tool type is assignable to ToolDefinition.
    const tool: Tool = { name: "sdk_tool", inputSchema: { type: "object", properties: { a: { type: "string" } } }, annotations: { readOnlyHint: true } };
    const definition: ToolDefinition = tool;
    expect(generateDeclarations([{ name: "sdk", tools: [definition] }]).text).toContain("function sdk_tool(input?:{a?:string}):Promise<unknown>;");
  });
});

describe("declarationsFor", () => {
  it("gives the picked tools with only the shared types they need, in pick order", () => {
    const d = generateDeclarations(loadCorpus());
    const text = declarationsFor(d, [
      { namespace: "memory", name: "delete_relations" },
      { namespace: "everything", name: "echo" },
      { namespace: "memory", name: "create_entities" },
      { namespace: "nowhere", name: "x" },
      { namespace: "memory", name: "not_a_tool" },
    ]);
    expect(text).toBe(
      [
        "declare namespace memory{",
        "type Entity={",
        "/** The name of the entity */",
        "name:string;",
        "/** The type of the entity */",
        "entityType:string;",
        "/** An array of observation contents associated with the entity */",
        "observations:string[];",
        "}",
        "type Relation={",
        "/** The name of the entity where the relation starts */",
        "from:string;",
        "/** The name of the entity where the relation ends */",
        "to:string;",
        "/** The type of the relation */",
        "relationType:string;",
        "}",
        "/** Delete multiple relations from the knowledge graph */",
        "function delete_relations(input:{",
        "/** An array of relations to delete */",
        "relations:Relation[];",
        "}):Promise<{success:boolean;message:string}>;",
        "/** Create multiple new entities in the knowledge graph */",
        "function create_entities(input:{entities:Entity[]}):Promise<{entities:Entity[]}>;",
        "}",
        "declare namespace everything{",
        "/** Echoes back the input string",
        "@returns No output schema: inspect the value before relying on its shape. */",
        "function echo(input:{",
        "/** Message to echo */",
        "message:string;",
        "}):Promise<unknown>;",
        "}",
      ].join("\n"),
    );
    expect(declarationsFor(d, [])).toBe("");
  });
});
