/**
 * Reads a tool catalog from parsed JSON: either a tools/list result (`{ "tools": [ … ] }`,
 * bare or inside a JSON-RPC response) or a map of server name to tools
 * (`{ "shipping": [ … ], "news": [ … ] }`). Pure: the CLI and the UI's import both use it.
 */
import type { ServerTools, ToolDefinition } from "./types";
import { isSchemaObject } from "./schema-ref";

/** A catalog, or why the JSON is not one. */
export type CatalogResult = { ok: true; servers: ServerTools[] } | { ok: false; error: string };

// Keys a tools/list result may carry besides `tools`.
const LIST_RESULT_KEYS = new Set(["tools", "nextCursor", "_meta"]);

/** Validates parsed JSON as a catalog; a bare tools/list result becomes one server named `defaultServer`. */
export function parseCatalog(json: unknown, defaultServer: string): CatalogResult {
  if (!isSchemaObject(json)) return { ok: false, error: "expected a JSON object: a tools/list result or a map of server name to tools" };
  const result = isSchemaObject(json.result) && Array.isArray(json.result.tools) ? json.result : json;
  if (Array.isArray(result.tools) && Object.keys(result).every((k) => LIST_RESULT_KEYS.has(k))) {
    const tools = readTools(result.tools, "tools");
    return typeof tools === "string" ? { ok: false, error: tools } : { ok: true, servers: [{ name: defaultServer, tools }] };
  }
  const entries = Object.entries(json);
  if (entries.length === 0) return { ok: false, error: 'the object is empty: expected { "tools": [ … ] } or { "server": [ … ] }' };
  const servers: ServerTools[] = [];
  for (const [name, value] of entries) {
    if (!Array.isArray(value)) {
      return { ok: false, error: `${JSON.stringify(name)} is not an array of tools: expected { "tools": [ … ] } or { "server": [ … ] }` };
    }
    const tools = readTools(value, JSON.stringify(name));
    if (typeof tools === "string") return { ok: false, error: tools };
    servers.push({ name, tools });
  }
  return { ok: true, servers };
}

function readTools(values: readonly unknown[], where: string): ToolDefinition[] | string {
  const tools: ToolDefinition[] = [];
  for (const [i, value] of values.entries()) {
    const at = `${where}[${i}]`;
    if (!isSchemaObject(value)) return `${at} is not an object`;
    if (typeof value.name !== "string") return `${at} has no string "name"`;
    if (!isSchemaObject(value.inputSchema)) return `${at} (${JSON.stringify(value.name)}) has no object "inputSchema"`;
    for (const key of ["title", "description"]) {
      if (value[key] !== undefined && typeof value[key] !== "string") return `${at} (${JSON.stringify(value.name)}) has a "${key}" that is not a string`;
    }
    if (value.outputSchema !== undefined && !isSchemaObject(value.outputSchema)) {
      return `${at} (${JSON.stringify(value.name)}) has an "outputSchema" that is not an object`;
    }
    tools.push(value as unknown as ToolDefinition);
  }
  return tools;
}
