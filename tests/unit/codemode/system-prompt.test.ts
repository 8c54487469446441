/** The code-mode system prompt, pinned by exact text: every word of it was chosen. */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { buildSystemPrompt, EXECUTE_CODE_INPUT_SCHEMA, SEARCH_TOOLS_INPUT_SCHEMA } from "../../../lib/codemode/system-prompt";
import { declarationsForPrompt } from "../../../lib/codemode/prompt-declarations";
import { loadCorpus } from "./helpers";

const RULES = `Act through execute_code: send one JavaScript program, the body of an async function that calls \`await namespace.function({...})\` and ends with return (TypeScript types are stripped). You get back its value and console output, or its error.
- Calls resolve to the structured content, else the text parsed as JSON, else the text. Promise<unknown> means no declared output: check the value's shape first.
- Run independent calls together in Promise.all.
- Return only what you need: large values are cut short.
- A failing call throws; catch it if the program can go on.
- No network, files, timers or imports.`;

describe("buildSystemPrompt", () => {
  it("a tool with an MCP App is marked in its doc where the host shows apps, and the rules say what the mark means, only when one is connected", () => {
    const tool = (meta?: Record<string, unknown>) => ({
      name: "quote",
      description: "Quotes a parcel.",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
      ...(meta ? { _meta: meta } : {}),
    });
    const withApp = generateDeclarations([{ name: "ship", tools: [tool({ ui: { resourceUri: "ui://ship/quote.html" } })] }], { markApps: true });
    // A host that shows no apps (the headless runner, the code-mode server) does not mark them.
    expect(generateDeclarations([{ name: "ship", tools: [tool({ ui: { resourceUri: "ui://ship/quote.html" } })] }]).namespaces[0]?.tools[0]?.hasApp).toBe(
      false,
    );
    expect(withApp.namespaces[0]?.tools[0]?.hasApp).toBe(true);
    expect(buildSystemPrompt(withApp)).toBe(`${RULES}
- Functions marked @app show the person their UI when called, from a program too: call one when the person should see its result.

The tool API:
\`\`\`ts
declare namespace ship{
/** Quotes a parcel.
@app Calling it shows the person its UI. */
function quote():Promise<{price:number}>;
}
\`\`\``);
    const without = generateDeclarations([{ name: "ship", tools: [tool({ ui: { visibility: ["model"] } })] }]);
    expect(buildSystemPrompt(without).startsWith(`${RULES}\n\nThe tool API:`)).toBe(true);
    expect(buildSystemPrompt(without)).not.toContain("@app");
  });

  it("gives the rules, then the declarations", () => {
    const declarations = generateDeclarations([
      {
        name: "geo",
        tools: [
          {
            name: "distance",
            description: "Distance between two points, in km.",
            inputSchema: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } }, required: ["from", "to"] },
            outputSchema: { type: "object", properties: { km: { type: "number" } }, required: ["km"] },
          },
        ],
      },
    ]);
    expect(buildSystemPrompt(declarations)).toBe(`${RULES}

The tool API:
\`\`\`ts
declare namespace geo{
// Distance between two points, in km.
function distance(input:{from:string;to:string}):Promise<{km:number}>;
}
\`\`\``);
  });

  it("in search mode, gives the rules, the namespaces and the search tool instead", () => {
    expect(buildSystemPrompt(generateDeclarations(loadCorpus()), "search")).toBe(`${RULES}

The catalog is too large to list here. These namespaces exist:
- everything: 13 functions
- filesystem: 14 functions
- memory: 9 functions
- sequential_thinking (server "sequential-thinking"): 1 function

Before using a function, find it with the search_tools tool: give it a few keywords and it returns the TypeScript declarations of the best matches. Search again with other words when nothing fits; call only functions a search has shown you. A program can search too, while it runs: \`await tools.search("keywords")\` returns matches as {name, declaration}, \`await tools.describe("namespace.function")\` one function.`);
  });

  it("describes the model tools' inputs", () => {
    expect(EXECUTE_CODE_INPUT_SCHEMA.required).toEqual(["code"]);
    expect(SEARCH_TOOLS_INPUT_SCHEMA.required).toEqual(["query"]);
  });
});

describe("declarationsForPrompt", () => {
  it("keeps a property's doc once per namespace, drops docs that only restate the name, and writes one-line docs as // comments", () => {
    const text = `declare namespace ship{
/** Carrier id. */
type Carrier="a"|"b"
/** Quotes one carrier. */
function quote(input:{
/** Carrier id, from list_carriers. */
carrier:Carrier;
/** Cart id. */
cartId:string;
/** Display name. */
name?:string;
}):Promise<{
/** Carrier id, from list_carriers. */
carrier:Carrier;
/**
 * Two lines
 * of doc.
 */
price:number;
}>;
}
declare namespace other{
function f(input:{
/** Carrier id, from list_carriers. */
carrier:string;
}):Promise<unknown>;
}`;
    expect(declarationsForPrompt(text)).toBe(`declare namespace ship{
// Carrier id.
type Carrier="a"|"b"
// Quotes one carrier.
function quote(input:{
// Carrier id, from list_carriers.
carrier:Carrier;
cartId:string;
// Display name.
name?:string;
}):Promise<{
carrier:Carrier;
/**
 * Two lines
 * of doc.
 */
price:number;
}>;
}
declare namespace other{
function f(input:{
// Carrier id, from list_carriers.
carrier:string;
}):Promise<unknown>;
}`);
  });

  it("drops a @default tag only when the description already gives that default", () => {
    const text = `declare namespace store{
function add(input:{
/** How many to add (1–20, default 1). @default 1 */
quantity?:number;
/** Sort order; default is "asc". @default "asc" @format word */
order?:string;
/** Tip in EUR, default 0. @default 5 */
tip?:number;
/** True to leave out closed stores. @default false */
openOnly?:boolean;
/** Pages; default 10 per call. @default 1 */
pages?:number;
}):Promise<unknown>;
}`;
    expect(declarationsForPrompt(text)).toBe(`declare namespace store{
function add(input:{
// How many to add (1–20, default 1).
quantity?:number;
// Sort order; default is "asc". @format word
order?:string;
// Tip in EUR, default 0. @default 5
tip?:number;
// True to leave out closed stores. @default false
openOnly?:boolean;
// Pages; default 10 per call. @default 1
pages?:number;
}):Promise<unknown>;
}`);
  });
});
