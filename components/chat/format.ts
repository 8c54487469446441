/** Small text formatters for the chat panel (pure). */
import { groupDigits, prettyJsonCut } from "@/lib/text/display";

/** Pretty JSON, cut at `max` characters so a huge value cannot freeze the panel. */
export function formatJson(value: unknown, max = 20_000): string {
  return prettyJsonCut(value, max);
}

/** "850 ms", "1.2 s". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "1,234". */
export function formatCount(n: number | undefined): string {
  return n === undefined ? "?" : groupDigits(n);
}
