/**
 * Finds text in a JSON value for the JSON viewer's search box: a key or a scalar's text that
 * contains the query (case-insensitive) is a hit; the branches above a hit are to be opened.
 * Paths are "/key/0/key" (keys escaped as JSON Pointer does). Bounded by `maxNodes`, so a 2 MB
 * value cannot freeze the page. Pure.
 */
export interface JsonSearch {
  /** Paths of the hits (the node whose key or value matched). */
  hits: ReadonlySet<string>;
  /** Paths of every branch that holds a hit (the root is ""). */
  open: ReadonlySet<string>;
  /** True when the walk stopped at `maxNodes` (there may be more hits). */
  partial: boolean;
}

export function childPath(parent: string, key: string): string {
  return `${parent}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

export function searchJson(value: unknown, query: string, maxNodes = 20_000): JsonSearch {
  const hits = new Set<string>();
  const open = new Set<string>();
  const needle = query.trim().toLowerCase();
  if (needle === "") return { hits, open, partial: false };
  let nodes = 0;
  let partial = false;
  const walk = (node: unknown, path: string, key: string | undefined, ancestors: string[]): void => {
    if (++nodes > maxNodes) {
      partial = true;
      return;
    }
    const keyHit = key !== undefined && key.toLowerCase().includes(needle);
    if (node !== null && typeof node === "object") {
      if (keyHit) mark(path, ancestors);
      const entries: Array<[string, unknown]> = Array.isArray(node) ? node.map((item, i) => [String(i), item]) : Object.entries(node);
      for (const [k, child] of entries) walk(child, childPath(path, k), Array.isArray(node) ? undefined : k, [...ancestors, path]);
      return;
    }
    const text = typeof node === "string" ? node : String(node);
    if (keyHit || text.toLowerCase().includes(needle)) mark(path, ancestors);
  };
  const mark = (path: string, ancestors: string[]) => {
    hits.add(path);
    for (const a of ancestors) open.add(a);
  };
  walk(value, "", undefined, []);
  return { hits, open, partial };
}
