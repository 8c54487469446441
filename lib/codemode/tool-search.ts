/**
 * Tool search for large catalogs: instead of every declaration, the model gets the server
 * list and a search tool, and each search returns the declarations of the best matches.
 * MiniSearch (BM25, prefix and fuzzy matching) indexes server, name, title, description
 * and property names; a ranking library is the right tool here, not hand-written scoring.
 */
import MiniSearch from "minisearch";
import type { Declarations, ServerTools, ToolDefinition } from "./types";
import { declarationsFor } from "./declarations";
import { isSchemaObject } from "./schema-ref";

/** One match. */
export interface ToolSearchHit {
  server: string;
  namespace: string;
  tool: string;
  /** Call it as `namespace.name(…)`. */
  name: string;
  score: number;
}

/** A search's matches and their declarations, ready to hand to the model. */
export interface ToolSearchResult {
  hits: ToolSearchHit[];
  /** `declare namespace` blocks for the hits, with the shared types they need. */
  text: string;
}

/** A built index over a catalog. */
export interface ToolSearch {
  /** How many tools are indexed. */
  size: number;
  /** The best `limit` matches for a free-text query (default 5). */
  search(query: string, limit?: number): ToolSearchResult;
}

interface Doc {
  id: number;
  server: string;
  name: string;
  title: string;
  description: string;
  properties: string;
}

const MAX_PROPERTY_NAMES = 200;

/**
 * Splits on anything that is not a letter or digit, and on camelCase humps, so `get_quote`,
 * `get-quote` and `getQuote` all index as "get" and "quote".
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** Property names anywhere in a schema (nested ones included), capped for pathological schemas. */
function propertyNames(schema: unknown, into: string[] = [], depth = 0): string[] {
  if (!isSchemaObject(schema) || depth > 8 || into.length >= MAX_PROPERTY_NAMES) return into;
  if (isSchemaObject(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      if (into.length >= MAX_PROPERTY_NAMES) break;
      into.push(name);
      propertyNames(child, into, depth + 1);
    }
  }
  for (const key of ["items", "additionalProperties"]) propertyNames(schema[key], into, depth + 1);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) propertyNames(b, into, depth + 1);
  }
  return into;
}

/** Builds the index over the servers' tools, using their generated declarations for results. */
export function createToolSearch(servers: readonly ServerTools[], declarations: Declarations): ToolSearch {
  const definitions = new Map<string, ToolDefinition>();
  for (const server of servers) {
    for (const tool of server.tools) {
      const key = `${server.name}\u0000${tool.name}`;
      if (!definitions.has(key)) definitions.set(key, tool);
    }
  }
  const docs: Doc[] = [];
  const targets: Array<Omit<ToolSearchHit, "score">> = [];
  for (const ns of declarations.namespaces) {
    for (const tool of ns.tools) {
      const definition = definitions.get(`${ns.server}\u0000${tool.tool}`);
      docs.push({
        id: targets.length,
        server: `${ns.server} ${ns.namespace}`,
        name: tool.tool,
        title: definition?.title ?? "",
        description: definition?.description ?? "",
        properties: propertyNames(definition?.inputSchema).join(" "),
      });
      targets.push({ server: ns.server, namespace: ns.namespace, tool: tool.tool, name: tool.name });
    }
  }
  const index = new MiniSearch<Doc>({
    fields: ["server", "name", "title", "description", "properties"],
    tokenize,
    processTerm: (term) => term.toLowerCase(),
    searchOptions: {
      boost: { name: 3, title: 2, server: 1.5, properties: 1.2, description: 1 },
      prefix: true,
      fuzzy: 0.2,
      combineWith: "OR",
    },
  });
  index.addAll(docs);
  return {
    size: docs.length,
    search(query, limit = 5) {
      // Ties are broken by catalog order so the same query always gives the same list.
      const ranked = index.search(query).sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
      const hits = ranked.slice(0, Math.max(0, limit)).flatMap((r) => {
        const target = targets[r.id as number];
        return target ? [{ ...target, score: r.score }] : [];
      });
      return { hits, text: declarationsFor(declarations, hits) };
    },
  };
}
