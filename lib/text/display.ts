/**
 * Values and text shown to people or put in messages, cut to a size: the one display
 * truncation of the app. Pure; values become text, never HTML.
 */

/** Pretty JSON cut to a size, and whether it was cut. */
export interface DisplayText {
  text: string;
  truncated: boolean;
}

/** Thrown inside the writer once enough text exists; never escapes truncateForDisplay. */
class Enough extends Error {}

/**
 * Pretty-prints a value as JSON (two-space indent, as JSON.stringify) but stops writing once
 * `maxChars` is reached, so a 2 MB result costs no more than the part shown. Values that JSON
 * cannot hold are shown rather than thrown: cycles as "[circular]", BigInt as its digits,
 * a top-level undefined as "undefined". When cut, `text` ends with "…" and is `maxChars` long.
 */
export function truncateForDisplay(value: unknown, maxChars: number): DisplayText {
  const limit = Math.max(1, Math.floor(maxChars));
  const parts: string[] = [];
  let length = 0;
  const write = (part: string): void => {
    parts.push(part);
    length += part.length;
    if (length > limit) throw new Enough();
  };
  const ancestors = new Set<object>();

  const writeValue = (input: unknown, indent: string): void => {
    const item = toJsonable(input);
    // A long string is cut anyway: quote only what can be shown.
    if (typeof item === "string" && item.length > limit) return write(JSON.stringify(item.slice(0, limit)));
    if (item === null || typeof item !== "object") return write(scalar(item));
    if (ancestors.has(item)) return write('"[circular]"');
    ancestors.add(item);
    const inner = `${indent}  `;
    if (Array.isArray(item)) {
      if (item.length === 0) write("[]");
      else {
        write("[");
        item.forEach((element, i) => {
          write(`${i === 0 ? "" : ","}\n${inner}`);
          writeValue(omitted(element) ? null : element, inner);
        });
        write(`\n${indent}]`);
      }
    } else {
      const entries = Object.entries(item).filter(([, v]) => !omitted(toJsonable(v)));
      if (entries.length === 0) write("{}");
      else {
        write("{");
        entries.forEach(([key, v], i) => {
          write(`${i === 0 ? "" : ","}\n${inner}${JSON.stringify(key)}: `);
          writeValue(v, inner);
        });
        write(`\n${indent}}`);
      }
    }
    ancestors.delete(item);
  };

  try {
    if (value === undefined) write("undefined");
    else writeValue(value, "");
  } catch (error) {
    if (!(error instanceof Enough)) throw error;
    return { text: cut(parts.join(""), limit), truncated: true };
  }
  return { text: parts.join(""), truncated: false };
}

/** Applies toJSON (Dates) the way JSON.stringify does. */
function toJsonable(value: unknown): unknown {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

/** Values JSON.stringify drops from objects (and turns into null in arrays). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function scalar(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (omitted(value)) return "null";
  return JSON.stringify(value) ?? "null";
}

/** Cuts to `limit` characters including the "…", without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  let end = limit - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, Math.max(0, end))}…`;
}

/** Shortens text for a message: at most `max` characters, "…" marking a cut. */
export function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Keeps the first `max` characters of text for a model and says how many were left out: "… (N more characters)". */
export function clipCounted(text: string, max: number, unit = "characters"): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max))}… (${text.length - Math.max(0, max)} more ${unit})`;
}

/** Pretty JSON of a value, cut at `max` characters with a note of how much was left out. */
export function prettyJsonCut(value: unknown, max: number): string {
  const shown = truncateForDisplay(value, max);
  return shown.truncated ? `${shown.text}\n(cut at ${groupDigits(max)} characters)` : shown.text;
}

/**
 * "12,400": an integer's digits in groups of three (a number with a fraction is rounded first).
 * Written out rather than `toLocaleString`, whose first call loads the browser's locale data,
 * about 13 ms on the page's start (docs/speed.md, "The page's start").
 */
export function groupDigits(n: number, separator = ","): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = String(Math.abs(Math.round(n)));
  return `${n < 0 && Math.round(n) !== 0 ? "-" : ""}${digits.replace(/\B(?=(\d{3})+$)/g, separator)}`;
}

/** "1 tool", "3 tools": a count with its noun, singular when it is one. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
