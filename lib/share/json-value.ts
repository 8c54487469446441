/**
 * Plain JSON values for the loose parts of a share (tool schemas, message parts, runs): a safe
 * deep copy of whatever the app hands in, a nesting-depth scan that runs before JSON.parse, and
 * canonical text for content addressing. Pure.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Keys a copy never keeps. `__proto__` from JSON.parse is an own property; assigned onto a
 * fresh object it would become that object's prototype instead of a key.
 */
const DROPPED_KEYS = new Set(["__proto__"]);

function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Deep copy with JSON semantics: functions, symbols, bigints and `undefined` are dropped (in
 * arrays they become null, as JSON.stringify does), non-finite numbers become null, Dates become
 * ISO text, cycles and anything deeper than `maxDepth` are dropped. Never throws on hostile input
 * (getters that throw are treated as missing).
 */
export function copyJson(value: unknown, maxDepth = 64): JsonValue | undefined {
  return copyValue(value, maxDepth, new WeakSet());
}

function copyValue(value: unknown, depth: number, ancestors: WeakSet<object>): JsonValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth <= 0 || ancestors.has(value)) return undefined;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => copyValue(item, depth - 1, ancestors) ?? null);
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      if (DROPPED_KEYS.has(key)) continue;
      let item: unknown;
      try {
        item = (value as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      const copied = copyValue(item, depth - 1, ancestors);
      if (copied !== undefined) setOwn(out, key, copied);
    }
    return out;
  } finally {
    // Only ancestors make a cycle: a value shared by two branches is copied twice.
    ancestors.delete(value);
  }
}

/** A copy of `value` when it is a JSON object (not an array), else undefined. */
export function copyJsonObject(value: unknown, maxDepth = 64): JsonObject | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const copied = copyJson(value, maxDepth);
  return copied !== null && typeof copied === "object" && !Array.isArray(copied) ? copied : undefined;
}

/**
 * The deepest bracket nesting in JSON text, found without parsing (strings and escapes are
 * skipped). Iterative on purpose: this runs before anything recursive touches hostile input.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** UTF-8 byte length of a JSON value's text. */
export function jsonByteLength(value: JsonValue): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
