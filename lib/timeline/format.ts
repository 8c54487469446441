/**
 * Display text for the timeline: durations, and values shown as pretty JSON cut to a size.
 * Pure; values are rendered as text, never as HTML.
 */

/** A duration for people: "0.4 ms", "250 ms", "1.25 s", "2 min 5 s", "1 h 2 min"; "—" when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 10) return `${trimZeros(ms.toFixed(1))} ms`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${trimZeros((ms / 1_000).toFixed(2))} s`;
  if (ms < 60_000) return `${trimZeros((ms / 1_000).toFixed(1))} s`;
  const totalSeconds = Math.round(ms / 1_000);
  if (totalSeconds < 3_600) return joinUnits(Math.floor(totalSeconds / 60), "min", totalSeconds % 60, "s");
  const totalMinutes = Math.round(totalSeconds / 60);
  return joinUnits(Math.floor(totalMinutes / 60), "h", totalMinutes % 60, "min");
}

function trimZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

function joinUnits(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}

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
