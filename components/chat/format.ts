/** Small text formatters for the chat panel (pure). */

/** Pretty JSON, cut at `max` characters so a huge value cannot freeze the panel. */
export function formatJson(value: unknown, max = 20_000): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString()} more characters)` : text;
}

/** "850 ms", "1.2 s". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "1,234". */
export function formatCount(n: number | undefined): string {
  return n === undefined ? "?" : n.toLocaleString("en");
}
