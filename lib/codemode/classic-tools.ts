/**
 * Classic tool calling, the baseline code mode is measured against: every MCP tool offered to
 * the model as an ordinary tool (its sanitised name, description and JSON Schema), one model
 * step per round of tool calls. The names come from resolveNames, like the typed API's, so a
 * classic tool and the function the code would call are the same tool. A round runs in the
 * sandbox as one generated program (classicProgram), so classic calls pass through the same
 * validation, approvals, mocks and timeline as a program's. See docs/ARCHITECTURE.md.
 */
import { resolveNames } from "./names";
import type { Declarations, JsonSchema, ServerTools } from "./types";

/** A classic tool as the model sees it, with the function it maps to. */
export interface ClassicTool {
  /** `namespace__function`: letters, digits, `_` and `-`, at most 64 characters (every provider's limit). */
  name: string;
  description: string;
  /** The tool's inputSchema (an object schema; a missing or unusable one becomes `{ type: "object" }`). */
  inputSchema: Record<string, unknown>;
  namespace: string;
  fn: string;
  server: string;
  tool: string;
}

/** What the model is told in classic mode. */
export const CLASSIC_SYSTEM_PROMPT = `You can act through tools. Call the tools you need to answer; when several calls do not depend on each other, make them together in one step. Each result comes back to you before your next step. When you have what you need, answer in plain words.`;

/** The search tool's name in classic with tool search (the same name code mode's search has). */
const SEARCH_TOOL = "search_tools";

/**
 * What the model is told in classic mode with tool search: the classic prompt, the servers, and
 * that tools load on demand. Tool definitions are deferred, as Anthropic's tool search defers
 * them: a search_tools call loads its matches, which the next request offers as tools.
 */
export function classicSearchPrompt(namespaces: Declarations["namespaces"]): string {
  const servers = namespaces.map((ns) => {
    const origin = ns.server === ns.namespace ? "" : ` (server ${JSON.stringify(ns.server)})`;
    return `- ${ns.namespace}${origin}: ${ns.tools.length} ${ns.tools.length === 1 ? "tool" : "tools"}`;
  });
  return `${CLASSIC_SYSTEM_PROMPT}

The catalog is too large to offer every tool at once. These servers exist:
${servers.join("\n")}

Tools load on demand: call ${SEARCH_TOOL} with a few keywords, and its best matches become tools you can call from your next step. Search again with other words when nothing fits.`;
}

/** Description of search_tools in classic with tool search. */
export const CLASSIC_SEARCH_DESCRIPTION =
  "Search the tool catalog by keywords. The best-matching tools are loaded: from your next step you can call them like any other tool. Returns their names and what they do.";

/** What a classic search tells the model about the tools it loaded: a line each, the description cut to one line. */
export function classicSearchText(tools: readonly ClassicTool[]): string {
  const lines = tools.map((t) => {
    const line = t.description.replace(/\s+/g, " ").trim();
    return `- ${t.name}: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
  });
  return `Loaded ${tools.length} ${tools.length === 1 ? "tool" : "tools"}, callable from your next step:\n${lines.join("\n")}`;
}

const MAX_NAME = 64;

/** The classic tool name for a function of a namespace. */
export function classicToolName(namespace: string, fn: string): string {
  return `${namespace}__${fn}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME);
}

function objectSchema(schema: JsonSchema | undefined): Record<string, unknown> {
  return schema && typeof schema === "object" && !Array.isArray(schema) && (schema.type === "object" || schema.type === undefined)
    ? { type: "object", ...schema }
    : { type: "object" };
}

/** Every tool of every server as a classic tool; names that still collide after cutting get a numeric suffix. */
export function classicTools(servers: readonly ServerTools[]): ClassicTool[] {
  const names = resolveNames(servers);
  const taken = new Set<string>();
  return servers.flatMap((server, s) =>
    server.tools.map((tool, t) => {
      const namespace = names.servers[s] ?? "_";
      const fn = names.tools[s]?.[t] ?? "_";
      let name = classicToolName(namespace, fn);
      for (let n = 2; taken.has(name); n++) name = `${classicToolName(namespace, fn).slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
      taken.add(name);
      const description = [tool.title, tool.description].filter((x): x is string => typeof x === "string" && x.trim() !== "").join(": ");
      return {
        name,
        description: description || `${tool.name} (server ${server.name})`,
        inputSchema: objectSchema(tool.inputSchema),
        namespace,
        fn,
        server: server.name,
        tool: tool.name,
      };
    }),
  );
}

/** One classic call to run. */
export interface ClassicCall {
  namespace: string;
  fn: string;
  args: unknown;
}

/** What the program returns per call, in order. */
export type ClassicOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The program that runs one round of classic calls together and returns an outcome per call.
 * Arguments are embedded as JSON literals and function names as JSON-quoted keys; namespaces
 * are identifiers from resolveNames (callers pass only those), so nothing in them is code.
 */
export function classicProgram(calls: readonly ClassicCall[]): string {
  for (const c of calls) if (!/^[A-Za-z_$][\w$]*$/.test(c.namespace)) throw new Error(`Not an identifier: ${JSON.stringify(c.namespace)}`);
  const lines = calls.map(
    (c) =>
      `  Promise.resolve().then(() => ${c.namespace}[${JSON.stringify(c.fn)}](${JSON.stringify(c.args ?? {})})).then((value) => ({ ok: true, value }), (e) => ({ ok: false, error: String(e && e.message !== undefined ? e.message : e) })),`,
  );
  return `// One round of classic tool calls, run together.\nreturn await Promise.all([\n${lines.join("\n")}\n]);`;
}
