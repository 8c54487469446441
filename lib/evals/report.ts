/**
 * Eval results: one record per run, a summary per case × mode × model (pass rate and medians),
 * and the JUnit XML that CI systems read. Pure.
 */
import type { LaneResult } from "../model/lanes";
import type { CodeModeUIMessage } from "../model/types";
import type { TraceSpan } from "../timeline/otlp";
import type { AssertionResult } from "./assertions";
import { groupDigits } from "../text/display";
import { median } from "../numbers/stats";
import { TASK_KINDS, type TaskKind } from "./suite";
import type { ToolMode } from "./suite";

/** One run of one case in one mode with one model. */
export interface EvalRun {
  case: string;
  /** The case's kind of task, when the suite says (suite.ts). */
  kind?: TaskKind;
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

/** A set of runs in figures: how many, how many passed, and medians. */
export interface RunFigures {
  runs: number;
  passed: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
}

/** Medians of a case × mode × model. */
export interface EvalGroup extends RunFigures {
  case: string;
  mode: ToolMode;
  model: string;
}

/** The median of a list, 0 for none (a case with no runs reports zeros). */
const medianOrZero = (values: readonly number[]) => (values.length === 0 ? 0 : median(values));

/** How many runs, how many passed, and their medians. */
function figuresOf(runs: readonly EvalRun[]): RunFigures {
  return {
    runs: runs.length,
    passed: runs.filter((r) => r.passed).length,
    requests: medianOrZero(runs.map((r) => r.requests)),
    inputTokens: medianOrZero(runs.map((r) => r.inputTokens)),
    outputTokens: medianOrZero(runs.map((r) => r.outputTokens)),
    wallMs: medianOrZero(runs.map((r) => r.wallMs)),
  };
}

/** Groups runs by case, mode and model, in the order they first appear. */
export function summarise(runs: readonly EvalRun[]): EvalGroup[] {
  const groups = new Map<string, EvalRun[]>();
  for (const run of runs) {
    const key = JSON.stringify([run.case, run.mode, run.model]);
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((list) => ({ case: list[0]!.case, mode: list[0]!.mode, model: list[0]!.model, ...figuresOf(list) }));
}

/** One kind of task in one mode: medians over its runs, and the pass rate. */
export type KindFigures = RunFigures;

/** The report per kind of task: each mode's figures, code mode against classic, and a verdict in plain words. */
export interface KindRow {
  kind: TaskKind | "unclassified";
  cases: number;
  code: KindFigures | undefined;
  classic: KindFigures | undefined;
  /** Classic with tool search (deferred definitions), when the suite ran it. */
  classicSearch: KindFigures | undefined;
  /** Classic's median input tokens ÷ code mode's: above 1, code mode sends fewer. */
  inputRatio: number | undefined;
  /** Classic with tool search's median input tokens ÷ code mode's. */
  searchRatio: number | undefined;
  verdict: string;
}

const KIND_WORDS: Record<KindRow["kind"], string> = {
  "one-round": "a one-round task",
  chain: "a chain of dependent calls",
  "fan-out": "a fan-out over a first call's results",
  "large-catalog": "a large catalog",
  "large-results": "large intermediate results",
  unclassified: "cases with no kind",
};

function figures(runs: readonly EvalRun[]): KindFigures | undefined {
  return runs.length === 0 ? undefined : figuresOf(runs);
}

/** Code mode against another mode, in words: "code mode sends 2.4× fewer input tokens here, in 2 model requests instead of 6.5". */
function comparison(code: KindFigures, other: KindFigures): string | undefined {
  if (code.inputTokens === 0 || other.inputTokens === 0) return undefined;
  const ratio = other.inputTokens / code.inputTokens;
  const tokens =
    ratio >= 1.05
      ? `code mode sends ${ratio.toFixed(1)}× fewer input tokens here`
      : ratio <= 1 / 1.05
        ? `code mode costs ${(1 / ratio).toFixed(1)}× more input tokens here`
        : "code mode and classic send about the same input tokens here";
  const requests =
    code.requests < other.requests
      ? `, in ${code.requests} model requests instead of ${other.requests}`
      : code.requests > other.requests
        ? `, and needs ${code.requests} model requests instead of ${other.requests}`
        : "";
  return tokens + requests;
}

function passes(code: KindFigures, other: KindFigures): string {
  const mine = code.passed / code.runs;
  const theirs = other.passed / other.runs;
  if (mine === theirs) return "";
  return `; it passes ${mine < theirs ? "less" : "more"} often (${code.passed}/${code.runs} against ${other.passed}/${other.runs})`;
}

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * What the figures say, in plain words: "Code mode costs 1.2× more input tokens here: a one-round
 * task." against classic with every tool, then a sentence against classic with tool search when
 * that ran too.
 */
function verdictOf(kind: KindRow["kind"], code: KindFigures | undefined, classic: KindFigures | undefined, classicSearch: KindFigures | undefined): string {
  const what = KIND_WORDS[kind];
  if (!code || (!classic && !classicSearch)) return `Only ${code ? "code mode" : "classic"} ran here (${what}): nothing to compare.`;
  const sentences: string[] = [];
  if (classic) {
    const words = comparison(code, classic);
    sentences.push(words ? `${capital(words)}: ${what}${passes(code, classic)}.` : `No token figures here (${what}).`);
  }
  if (classicSearch) {
    const words = comparison(code, classicSearch);
    const lead = classic ? "Against classic with tool search, " : `Against classic with tool search (${what}), `;
    sentences.push(words ? `${lead}${words}${passes(code, classicSearch)}.` : `${lead}no token figures.`);
  }
  return sentences.join(" ");
}

/** Groups runs by kind of task (the suite's order of kinds, unclassified last), code mode against classic and classic with tool search. */
export function reportByKind(runs: readonly EvalRun[]): KindRow[] {
  const kinds: Array<KindRow["kind"]> = [...TASK_KINDS, "unclassified"];
  return kinds.flatMap((kind) => {
    const mine = runs.filter((r) => (r.kind ?? "unclassified") === kind);
    if (mine.length === 0) return [];
    const code = figures(mine.filter((r) => r.mode === "code"));
    const classic = figures(mine.filter((r) => r.mode === "classic"));
    const classicSearch = figures(mine.filter((r) => r.mode === "classic-search"));
    const ratio = (other: KindFigures | undefined) => (code && other && code.inputTokens > 0 ? other.inputTokens / code.inputTokens : undefined);
    return [
      {
        kind,
        cases: new Set(mine.map((r) => r.case)).size,
        code,
        classic,
        classicSearch,
        inputRatio: ratio(classic),
        searchRatio: ratio(classicSearch),
        verdict: verdictOf(kind, code, classic, classicSearch),
      },
    ];
  });
}

/** A tool result at least this long (characters of JSON, about 10 000 tokens) makes a task one of large results. */
const LARGE_RESULT_CHARS = 40_000;

/** What kind of task a compare's prompt was, told from how its lanes ran, and the sign of it. */
export function inferKind(results: readonly LaneResult[]): { kind: TaskKind; sign: string } | undefined {
  const code = results.find((r) => r.spec.toolMode === "code" && r.status === "done");
  if (code?.form?.mode === "search")
    return { kind: "large-catalog", sign: "code mode's request gave the API as tool search: the declarations are over the budget" };
  const classic = results.find((r) => r.spec.toolMode !== "code" && r.status === "done" && r.shape);
  if (!classic?.shape) return undefined;
  const { rounds, largestResultChars } = classic.shape;
  if (largestResultChars >= LARGE_RESULT_CHARS)
    return {
      kind: "large-results",
      sign: `a tool result of about ${groupDigits(largestResultChars / 4)} tokens reached the model in classic mode`,
    };
  if (rounds.length <= 1) return { kind: "one-round", sign: `classic made ${rounds.length === 0 ? "no tool calls" : "one round of calls"}` };
  if (rounds.slice(1).some((n) => n >= 2)) return { kind: "fan-out", sign: `classic made ${rounds.length} rounds of calls (${rounds.join(", ")} calls)` };
  return { kind: "chain", sign: `classic made ${rounds.length} rounds of one call each` };
}

function laneFigures(lane: LaneResult): KindFigures {
  return {
    runs: 1,
    passed: lane.status === "done" && lane.errors === 0 ? 1 : 0,
    requests: lane.requests,
    inputTokens: lane.inputTokens,
    outputTokens: lane.outputTokens,
    wallMs: lane.wallMs,
  };
}

/**
 * The compare view's verdict: what kind of task the prompt looks like, and code mode against
 * classic (and classic with tool search) in the words of the report per kind. Only lanes of the
 * code lane's model are weighed, so a verdict is about the modes, not the models.
 */
export function compareVerdict(results: readonly LaneResult[]): string | undefined {
  if (results.some((r) => r.status === "waiting" || r.status === "running")) return undefined;
  const code = results.find((r) => r.spec.toolMode === "code" && r.status === "done");
  if (!code) return undefined;
  const same = results.filter((r) => r.status === "done" && (r.spec.model === undefined || r.spec.model === code.spec.model));
  const classic = same.find((r) => r.spec.toolMode === "classic");
  const search = same.find((r) => r.spec.toolMode === "classic-search");
  if (!classic && !search)
    return results.some((r) => r.spec.toolMode !== "code")
      ? "The classic lanes use another model or did not finish: no verdict on the modes alone."
      : undefined;
  const kind = inferKind(same);
  if (!kind) return undefined;
  return `This prompt looks like ${KIND_WORDS[kind.kind]} (${kind.sign}). ${verdictOf(kind.kind, laneFigures(code), classic && laneFigures(classic), search && laneFigures(search))}`;
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
