/**
 * Turns what the browser learned into what the model is told: a sandbox RunResult becomes an
 * execute_code output, a search becomes a search_tools output. Pure, and shared by the
 * browser hook and the Node agent loop, so tests pin exactly what the model sees.
 */
import type { LogEntry, RunResult } from "../sandbox/types";
import { DEFAULT_RESULT_BUDGET_TOKENS, shapeValue } from "./result-budget";
import type { ExecuteCodeInput, ExecuteCodeOutput, SearchToolsInput, SearchToolsOutput } from "./types";

/** Default number of search hits when the model gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 5;
const MAX_SEARCH_LIMIT = 20;

/** One console line as the model reads it: plain for log, prefixed with the level otherwise. */
export function formatLog(entry: LogEntry): string {
  return entry.level === "log" ? entry.text : `[${entry.level}] ${entry.text}`;
}

/** The execute_code output for a finished run; a value over the budget (tokens) is cut, with a note (result-budget.ts). */
export function runResultToOutput(result: RunResult, budget: number = DEFAULT_RESULT_BUDGET_TOKENS): ExecuteCodeOutput {
  const logs = result.logs.map(formatLog);
  if (!result.ok) return { ok: false, error: result.error, logs };
  const shaped = shapeValue(result.value, budget);
  return shaped.truncated ? { ok: true, value: shaped.value, logs, truncated: shaped.truncated } : { ok: true, value: result.value, logs };
}

/** The execute_code output when a person declined to run the code (step mode). */
export function skippedOutput(message: string): ExecuteCodeOutput {
  return { ok: false, skipped: true, message: message.trim() || "The person chose not to run this code." };
}

/** The search_tools output: the declarations found, or (classic with tool search) the tools loaded and their docs. */
export function searchOutput(answer: string | { text: string; tools: readonly string[] }): SearchToolsOutput {
  if (typeof answer !== "string") {
    return answer.tools.length === 0
      ? { declarations: "No tool matched. Search again with other words.", tools: [] }
      : { declarations: answer.text, tools: [...answer.tools] };
  }
  return { declarations: answer.trim() === "" ? "No function matched. Search again with other words." : answer };
}

/** Validated execute_code input, or why it is unusable. */
export function parseExecuteCodeInput(input: unknown): ExecuteCodeInput | { error: string } {
  const code = (input as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return { error: 'execute_code needs an object argument with a string "code" field.' };
  if (code.trim() === "") return { error: "execute_code got empty code: send the program to run." };
  return { code };
}

/** Validated search_tools input (limit clamped to 1–20, default 5), or why it is unusable. */
export function parseSearchToolsInput(input: unknown): Required<SearchToolsInput> | { error: string } {
  const { query, limit } = (input ?? {}) as { query?: unknown; limit?: unknown };
  if (typeof query !== "string" || query.trim() === "") return { error: 'search_tools needs a non-empty string "query".' };
  const n = typeof limit === "number" && Number.isFinite(limit) ? Math.round(limit) : DEFAULT_SEARCH_LIMIT;
  return { query, limit: Math.min(MAX_SEARCH_LIMIT, Math.max(1, n)) };
}

/** A short, human-readable line for an execute_code output (tool cards, the "return directly" view). */
export function describeOutput(output: ExecuteCodeOutput): string {
  if (output.ok) return "ok";
  if ("skipped" in output) return `skipped: ${output.message}`;
  const where = output.error.line === undefined ? "" : ` (line ${output.error.line}${output.error.column === undefined ? "" : `:${output.error.column}`})`;
  return `${output.error.kind} error${where}: ${output.error.message}`;
}
