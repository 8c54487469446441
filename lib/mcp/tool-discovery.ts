/**
 * Discovery at run time (docs/page-state.md, "Discovery"): inside a program,
 * `tools.search(query)` finds functions of the connected servers and `tools.describe(name)` gives
 * one function's declaration, so a program can look up what it needs instead of the model
 * reading every declaration first. Both read the same catalog as the model's search_tools; they
 * are host functions like any other, so they show on the timeline and replay from a recording.
 * The `tools` name is reserved: a server named so gets another namespace (lib/codemode/names.ts).
 */
import { declarationsFor } from "../codemode/declarations";
import { DISCOVERY_MAX_LIMIT as MAX_LIMIT, DISCOVERY_NAMESPACE } from "../codemode/discovery-api";
import type { ToolCatalog } from "../codemode/tool-catalog";
import type { HostFunction, HostFunctions } from "../sandbox/types";

/** One function a program can call, as search and describe return it. */
export interface FoundTool {
  /** Call it as `name(…)`: `namespace.function`. */
  name: string;
  server: string;
  tool: string;
  /** Its TypeScript declaration, with the shared types it needs. */
  declaration: string;
}

function searchArgs(args: unknown): { query: string; limit: number } {
  const input = typeof args === "string" ? { query: args } : args;
  if (typeof input !== "object" || input === null || typeof (input as { query?: unknown }).query !== "string")
    throw new TypeError(`${DISCOVERY_NAMESPACE}.search takes a query: tools.search("orders") or tools.search({ query: "orders", limit: 10 })`);
  const { query, limit } = input as { query: string; limit?: unknown };
  const n = limit === undefined ? 5 : limit;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
    throw new RangeError(`${DISCOVERY_NAMESPACE}.search: limit is a whole number from 1 to ${MAX_LIMIT}`);
  return { query, limit: n };
}

/** The `tools` functions over a catalog. */
export function discoveryFunctions(catalog: ToolCatalog): Record<string, HostFunction> {
  const { declarations } = catalog;
  const found = (namespace: string, name: string, server: string, tool: string): FoundTool => ({
    name: `${namespace}.${name}`,
    server,
    tool,
    declaration: declarationsFor(declarations, [{ namespace, name }]),
  });
  return {
    search: (args) => {
      const { query, limit } = searchArgs(args);
      return Promise.resolve(catalog.search.search(query, limit).hits.map((hit) => found(hit.namespace, hit.name, hit.server, hit.tool)));
    },
    describe: (args) => {
      if (typeof args !== "string")
        return Promise.reject(new TypeError(`${DISCOVERY_NAMESPACE}.describe takes a function's name: tools.describe("shipping.get_quote")`));
      const dot = args.indexOf(".");
      const namespace = args.slice(0, dot);
      const name = args.slice(dot + 1);
      const tool = declarations.namespaces.find((n) => n.namespace === namespace)?.tools.find((t) => t.name === name);
      if (dot < 0 || !tool) return Promise.reject(new Error(`There is no function "${args}". tools.search(query) finds functions by what they do.`));
      return Promise.resolve(found(namespace, name, tool.server, tool.tool));
    },
  };
}

/** `host` with the `tools` namespace added (one built per run, over the catalog of the servers it calls). */
export function withToolDiscovery(host: HostFunctions, catalog: ToolCatalog): HostFunctions {
  const out: HostFunctions = { ...host };
  // An own data property: the table is read with Object.hasOwn.
  Object.defineProperty(out, DISCOVERY_NAMESPACE, { value: discoveryFunctions(catalog), enumerable: true, writable: true, configurable: true });
  return out;
}
