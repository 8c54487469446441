/**
 * Canonical JSON: object keys sorted at every depth, so equal values give equal text whatever
 * order their keys were built in. Replay and run comparison match calls on it; share links and
 * their content-addressed ids are built on it. Pure.
 */

/** JSON text with object keys sorted at every depth; undefined, functions and symbols drop out as in JSON.stringify. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set())) ?? "undefined";
}

function sortKeys(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value !== "object") return value;
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return sortKeys((json as () => unknown).call(value), ancestors);
  // A cycle cannot come from JSON (what the guest sends); keep the function total anyway.
  if (ancestors.has(value)) return "[circular]";
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortKeys(item, ancestors));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      // defineProperty: a "__proto__" key from JSON.parse must stay a key, not become the prototype.
      Object.defineProperty(out, key, {
        value: sortKeys((value as Record<string, unknown>)[key], ancestors),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
