/**
 * Eval results: one record per run, a summary per case × mode × model (pass rate and medians),
 * and the JUnit XML that CI systems read. Pure.
 */
import type { CodeModeUIMessage } from "../model/types";
import type { TraceSpan } from "../timeline/otlp";
import type { AssertionResult } from "./assertions";
import type { ToolMode } from "./suite";

/** One run of one case in one mode with one model. */
export interface EvalRun {
  case: string;
  mode: ToolMode;
  model: string;
  /** 1-based. */
  run: number;
  passed: boolean;
  results: AssertionResult[];
  /** Model requests (round trips). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** True when a provider reported no usage and the figures are estimates. */
  estimatedTokens: boolean;
  toolCalls: number;
  wallMs: number;
  answer: string;
  /** How the loop ended (done, max-steps, error: message...). */
  stop: string;
  error?: string;
  /** The run as a span tree (model steps and tool calls), for OpenTelemetry export. */
  trace?: TraceSpan;
  /** The run's conversation, to open it. */
  messages?: CodeModeUIMessage[];
}

/** Medians of a case × mode × model. */
export interface EvalGroup {
  case: string;
  mode: ToolMode;
  model: string;
  runs: number;
  passed: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
}

/** The median of a list (the mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Groups runs by case, mode and model, in the order they first appear. */
export function summarise(runs: readonly EvalRun[]): EvalGroup[] {
  const groups = new Map<string, EvalRun[]>();
  for (const run of runs) {
    const key = JSON.stringify([run.case, run.mode, run.model]);
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((list) => ({
    case: list[0]!.case,
    mode: list[0]!.mode,
    model: list[0]!.model,
    runs: list.length,
    passed: list.filter((r) => r.passed).length,
    requests: median(list.map((r) => r.requests)),
    inputTokens: median(list.map((r) => r.inputTokens)),
    outputTokens: median(list.map((r) => r.outputTokens)),
    wallMs: median(list.map((r) => r.wallMs)),
  }));
}

const xml = (text: string) =>
  text
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c)
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]/gu, "");

/** JUnit XML: a test case per run, with its failed assertions (or its error) as the failure. */
export function junitXml(suiteName: string, runs: readonly EvalRun[]): string {
  const failures = runs.filter((r) => !r.passed).length;
  const seconds = runs.reduce((sum, r) => sum + r.wallMs, 0) / 1000;
  const cases = runs.map((r) => {
    const name = xml(`${r.case} [${r.mode}, ${r.model}, run ${r.run}]`);
    const open = `    <testcase classname="${xml(suiteName)}" name="${name}" time="${(r.wallMs / 1000).toFixed(3)}"`;
    if (r.passed) return `${open}/>`;
    const failed = r.results.filter((a) => a.status === "fail").map((a) => a.message);
    const message = xml(failed.join("; ") || r.error || "failed");
    return `${open}>\n      <failure message="${message}">${message}</failure>\n    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${xml(suiteName)}" tests="${runs.length}" failures="${failures}" time="${seconds.toFixed(3)}">\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`;
}
