/**
 * Small readers and markdown writers for the demo model's summaries. The values come from a
 * real run, typed `unknown`: every reader checks the shape and falls back rather than throw,
 * so a changed demo server yields a plainer answer, never a crash.
 */
import { truncateForDisplay } from "../../text/display";
import { isRecord } from "../../text/json-value";

/** A plain object, or an empty one. */
export function rec(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** An array, or an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A string, or the fallback. */
export function str(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : fallback;
}

/** "12.50 EUR" (or "?" when the amount is missing). */
export function money(amount: unknown, currency: unknown): string {
  const n = num(amount);
  return n === undefined ? "?" : `${n.toFixed(2)} ${str(currency)}`.trim();
}

// Rows come from tool results; a newline would break the list, markdown emphasis its look.
function clean(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/([*_`])/g, "\\$1");
}

/**
 * A markdown bullet list, one row per line: the first cell in bold, the rest after a colon.
 * Lists rather than tables: tables need GFM, which the chat's markdown renderer may not have.
 */
export function bullets(rows: ReadonlyArray<readonly string[]>): string {
  return rows.map(([head = "", ...rest]) => `- **${clean(head)}**${rest.length > 0 ? `: ${rest.map(clean).join(" · ")}` : ""}`).join("\n");
}

/** A compact JSON excerpt, for values the summary does not understand. */
export function excerpt(value: unknown, max = 600): string {
  return "```json\n" + truncateForDisplay(value, max).text + "\n```";
}
