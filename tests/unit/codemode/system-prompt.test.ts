/** The code-mode system prompt, pinned by exact text: every word of it was chosen. */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { buildSystemPrompt, EXECUTE_CODE_INPUT_SCHEMA, SEARCH_TOOLS_INPUT_SCHEMA } from "../../../lib/codemode/system-prompt";
import { loadCorpus } from "./helpers";

const RULES = `You can act through code: write one JavaScript program that calls tools through a typed API, and send it with the execute_code tool. You get back its return value and console output, or the error it threw.

- The program is the body of an async function: use await, end with return. TypeScript annotations are stripped.
- Call a tool as \`await namespace.function({ ... })\`. Its result comes unwrapped: the structured content, else the text parsed as JSON when it is JSON, else the text.
- Make independent calls together with Promise.all; await one after another only when a call needs an earlier result.
- Return only what you need, as JSON-serialisable data: a large value reaches you cut short, with a note; a huge one is an error.
- console.log output comes back with the result.
- A failing call throws an Error: catch it when the program can go on without that result, otherwise let it throw and fix the program.
- Promise<unknown> means no declared output: log or check the value before relying on its fields.
- There is no network, file system, timer or module loader: only the tool functions.`;

describe("buildSystemPrompt", () => {
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
/** Distance between two points, in km. */
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
