/**
 * The code-mode system prompt and the descriptions of the two model tools it refers to.
 * One file so that every word the model is told about code mode can be read in one place,
 * and pinned by one exact-text test.
 */
import type { Declarations } from "./types";
import { DISCOVERY_NAMESPACE } from "./discovery-api";
import { declarationsForPrompt } from "./prompt-declarations";

/** Names of the model-level tools; the chat layer must register them under these names. */
export const EXECUTE_CODE_TOOL = "execute_code";
/** See EXECUTE_CODE_TOOL. */
export const SEARCH_TOOLS_TOOL = "search_tools";

/** How the prompt gives the model the API. */
export type PromptMode = "declarations" | "search";

/**
 * What the model needs to write a correct program, in as few tokens as that takes: it is sent
 * with every request (docs/page-state.md, "What code mode sends").
 */
const RULES = `Act through ${EXECUTE_CODE_TOOL}: send one JavaScript program, the body of an async function that calls \`await namespace.function({...})\` and ends with return (TypeScript types are stripped). You get back its value and console output, or its error.
- Calls resolve to the structured content, else the text parsed as JSON, else the text. Promise<unknown> means no declared output: check the value's shape first.
- Run independent calls together in Promise.all.
- Return only what you need: large values are cut short.
- A failing call throws; catch it if the program can go on.
- No network, files, timers or imports.`;

/** Said only when a connected tool has an MCP App (its declaration carries the mark). */
export const APP_RULE = "- Functions marked @app show the person their UI when called, from a program too: call one when the person should see its result.";

/** The system prompt: rules, then the declarations or, in search mode, the servers and the search tool. */
export function buildSystemPrompt(declarations: Declarations, mode: PromptMode = "declarations"): string {
  const rules = declarations.namespaces.some((ns) => ns.tools.some((t) => t.hasApp)) ? `${RULES}\n${APP_RULE}` : RULES;
  if (mode === "declarations") {
    return `${rules}\n\nThe tool API:\n\`\`\`ts\n${declarationsForPrompt(declarations.text)}\n\`\`\``;
  }
  const servers = declarations.namespaces.map((ns) => {
    const origin = ns.server === ns.namespace ? "" : ` (server ${JSON.stringify(ns.server)})`;
    return `- ${ns.namespace}${origin}: ${ns.tools.length} ${ns.tools.length === 1 ? "function" : "functions"}`;
  });
  return `${rules}

The catalog is too large to list here. These namespaces exist:
${servers.join("\n")}

Before using a function, find it with the ${SEARCH_TOOLS_TOOL} tool: give it a few keywords and it returns the TypeScript declarations of the best matches. Search again with other words when nothing fits; call only functions a search has shown you. A program can search too, while it runs: \`await ${DISCOVERY_NAMESPACE}.search("keywords")\` returns matches as {name, declaration}, \`await ${DISCOVERY_NAMESPACE}.describe("namespace.function")\` one function.`;
}

/** Description of the execute_code model tool. */
export const EXECUTE_CODE_DESCRIPTION = "Run a program as the system prompt says.";

/** Description of the search_tools model tool (search mode only). */
export const SEARCH_TOOLS_DESCRIPTION =
  "Search the tool catalog by keywords. Returns the TypeScript declarations of the best-matching functions, ready to call from execute_code.";

/** JSON Schema of execute_code's input: the system prompt says what the program is, so `code` carries no doc of its own. */
export const EXECUTE_CODE_INPUT_SCHEMA = {
  type: "object",
  properties: { code: { type: "string" } },
  required: ["code"],
  additionalProperties: false,
} as const;

/** JSON Schema of search_tools' input. */
export const SEARCH_TOOLS_INPUT_SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", description: "A few keywords: what the function does, or names of its inputs." },
    limit: { type: "integer", minimum: 1, maximum: 20, description: "How many functions to return (default 5)." },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

/**
 * execute_code's description when the playground serves code mode to other agents (the
 * code-mode MCP server): the rules, then the declarations while they fit its budget, otherwise
 * the namespaces and the advice to search. `declarations` is undefined when they do not fit.
 */
export function codeModeServerDescription(namespaces: Declarations["namespaces"], declarations: string | undefined): string {
  const head = `Run a JavaScript program (TypeScript annotations are stripped) in a QuickJS sandbox against a typed API of MCP tools, and get back {"value", "logs", "calls"}.

- The program is the body of an async function: call a tool as \`await namespace.function({ ... })\`, make independent calls together with Promise.all, and end with \`return value\` (JSON-serialisable, only what you need).
- Results are already unwrapped: a tool's structured content, else its text parsed as JSON, else the text. A failing call throws; catch it when the program can go on.
- \`data\` (optional object): its keys become read-only globals, for inputs you would otherwise paste into the code.
- console.log output comes back in "logs". There is no network, file system, timer or module loader.
- A failure comes back as an error result that names its kind (syntax, runtime, tool, timeout, memory, limit, busy ...): fix the program and retry.`;
  if (declarations !== undefined) return `${head}\n\nThe tool API:\n\`\`\`ts\n${declarationsForPrompt(declarations)}\n\`\`\``;
  const list = namespaces.map((ns) => `- ${ns.namespace}: ${ns.tools.length} ${ns.tools.length === 1 ? "function" : "functions"}`);
  return `${head}\n\nThe API is too large to list here. These namespaces exist:\n${list.join("\n")}\n\nFind functions with the ${SEARCH_TOOLS_TOOL} tool first: it returns their TypeScript declarations. Call only functions a search has shown you.`;
}
