/**
 * Text forms of the map fields a server form edits: headers as `Name: value` lines, env as
 * `KEY=value` lines, args one per line. Pure, so the form's parsing is unit-tested.
 */

/** Parses `Name: value` lines; blank lines are skipped; a line without a colon is an error. */
export function parseHeaderLines(text: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  return parsePairs(text, ":", "Name: value");
}

/** Parses `KEY=value` lines. */
export function parseEnvLines(text: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  return parsePairs(text, "=", "KEY=value");
}

/** One argument per line, so arguments with spaces need no quoting; blank lines are skipped. */
export function parseArgLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** The inverse of parseHeaderLines / parseEnvLines. */
export function formatPairs(pairs: Record<string, string> | undefined, separator: ": " | "="): string {
  return Object.entries(pairs ?? {})
    .map(([key, value]) => `${key}${separator}${value}`)
    .join("\n");
}

function parsePairs(text: string, separator: string, shape: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  const value: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (!line) continue;
    const at = line.indexOf(separator);
    if (at <= 0) return { ok: false, message: `Line ${i + 1} is not "${shape}".` };
    const key = line.slice(0, at).trim();
    // defineProperty: a key such as __proto__ must stay a plain entry.
    Object.defineProperty(value, key, { value: line.slice(at + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value };
}
