/**
 * Result shaping: a program's value larger than the budget reaches the model cut down, with a
 * note that says what was cut and how to get the rest, instead of flooding the context or
 * failing with a bare limit error. Cuts are structural (arrays and objects keep their first
 * entries, strings their start), each marked where it happened, and as light as the budget
 * allows. Sizes are estimated (about 4 characters of JSON per token) unless a counter is given.
 */
import { clipCounted } from "../text/display";

/** Default budget for one program's value, in tokens. */
export const DEFAULT_RESULT_BUDGET_TOKENS = 6_000;

/** What the model gets when the value was cut. */
export interface Truncation {
  /** Estimated tokens of the whole value. */
  tokens: number;
  budget: number;
  /** For the model: what was cut and how to get the rest. */
  note: string;
}

/** Tokens of a JSON text; the default estimate is a quarter of its length. */
export type TokenMeasure = (json: string) => number;

const estimate: TokenMeasure = (json) => Math.ceil(json.length / 4);
const STRING_CAPS = [2_000, 500, 120];

function cut(value: unknown, entries: number, chars: number, depth = 0): unknown {
  if (typeof value === "string") return clipCounted(value, chars);
  if (value === null || typeof value !== "object" || depth > 50) return value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, entries).map((v) => cut(v, entries, chars, depth + 1));
    return value.length > entries ? [...kept, `… ${value.length - entries} more items`] : kept;
  }
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const key of keys.slice(0, entries)) out[key] = cut((value as Record<string, unknown>)[key], entries, chars, depth + 1);
  if (keys.length > entries) out["…"] = `${keys.length - entries} more keys`;
  return out;
}

/** The largest entry count of any array or object in the value (the search's upper bound). */
function widest(value: unknown, depth = 0): number {
  if (value === null || typeof value !== "object" || depth > 50) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return Math.max(children.length, ...children.map((c) => widest(c, depth + 1)));
}

/** The value within the budget: unchanged when it fits, else cut as lightly as the budget allows, with a note. */
export function shapeValue(
  value: unknown,
  budget: number = DEFAULT_RESULT_BUDGET_TOKENS,
  measure: TokenMeasure = estimate,
): { value: unknown; truncated?: Truncation } {
  const json = JSON.stringify(value) ?? "null";
  const tokens = measure(json);
  if (tokens <= budget) return { value };
  const fits = (v: unknown) => measure(JSON.stringify(v) ?? "null") <= budget;
  const max = widest(value);
  for (const chars of STRING_CAPS) {
    // Binary search: the most entries per array or object that still fits.
    let lo = 0;
    let hi = max;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(cut(value, mid, chars))) lo = mid;
      else hi = mid - 1;
    }
    const shaped = cut(value, lo, chars);
    if (fits(shaped) && (lo > 0 || max === 0)) return { value: shaped, truncated: { tokens, budget, note: noteFor(tokens, budget, lo, max, chars) } };
  }
  const text = clipCounted(json, budget * 4, "characters of JSON");
  return { value: text, truncated: { tokens, budget, note: noteFor(tokens, budget, 0, max, 0) } };
}

function noteFor(tokens: number, budget: number, entries: number, max: number, chars: number): string {
  const how =
    chars === 0
      ? "it is shown as the start of its JSON text"
      : `${max > entries ? `arrays and objects keep their first ${entries} ${entries === 1 ? "entry" : "entries"}` : "every array and object is whole"}, strings their first ${chars} characters; each cut says how much it left out`;
  return `The program's value is about ${tokens} tokens, over the ${budget}-token budget for a result, so it was cut: ${how}. To get the rest, return less (select the fields you need, filter or aggregate inside the program) or fetch it in pages.`;
}
