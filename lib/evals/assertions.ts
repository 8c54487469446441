/**
 * Checks one eval run against its case's assertions. Pure: a run is what the loop and the tool
 * world recorded (answer, MCP calls, program values, requests, tokens, how it stopped).
 */
import type { Assertion, ToolMode } from "./suite";
import { messageOf } from "../text/error-message";

/** What one run produced. */
export interface RunFacts {
  mode: ToolMode;
  /** The final answer's text. */
  answer: string;
  /** Every MCP call the run made, with original server and tool names. */
  calls: ReadonlyArray<{ server: string; tool: string; args: unknown; ok: boolean }>;
  /** Values of the programs that ran (code mode), in order. */
  values: readonly unknown[];
  requests: number;
  inputTokens: number;
  /** Set when the loop ended in an error or a limit. */
  error: string | undefined;
}

/** The verdict on one assertion. `skipped` when it does not apply to the run (a program value in classic mode). */
export interface AssertionResult {
  assertion: Assertion;
  status: "pass" | "fail" | "skipped";
  message: string;
}

/** `actual` contains `expected`: objects by key (recursively), arrays element by element from the start, other values equal. */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(actual, expected);
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.length <= actual.length && expected.every((e, i) => partialMatch(actual[i], e));
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([k, v]) => partialMatch((actual as Record<string, unknown>)[k], v));
}

function split(ref: string): { server: string; tool: string } {
  const dot = ref.indexOf(".");
  return { server: ref.slice(0, dot), tool: ref.slice(dot + 1) };
}

/** Evaluates one assertion. */
export function check(assertion: Assertion, run: RunFacts): AssertionResult {
  const verdict = (ok: boolean, pass: string, fail: string): AssertionResult => ({ assertion, status: ok ? "pass" : "fail", message: ok ? pass : fail });
  if ("toolCalled" in assertion) {
    const { server, tool } = split(assertion.toolCalled);
    const same = run.calls.filter((c) => c.server === server && c.tool === tool);
    const ok = same.some((c) => assertion.args === undefined || partialMatch(c.args, assertion.args));
    const args = assertion.args ? ` with ${JSON.stringify(assertion.args)}` : "";
    return verdict(
      ok,
      `${assertion.toolCalled} was called${args}`,
      same.length === 0 ? `${assertion.toolCalled} was never called` : `${assertion.toolCalled} was called ${same.length}×, never${args}`,
    );
  }
  if ("toolNotCalled" in assertion) {
    const { server, tool } = split(assertion.toolNotCalled);
    const n = run.calls.filter((c) => c.server === server && c.tool === tool).length;
    return verdict(n === 0, `${assertion.toolNotCalled} was not called`, `${assertion.toolNotCalled} was called ${n}×`);
  }
  if ("valueMatches" in assertion) {
    if (run.mode !== "code") return { assertion, status: "skipped", message: "a program value exists only in code mode" };
    const ok = run.values.some((v) => partialMatch(v, assertion.valueMatches));
    return verdict(ok, "a program's value matched", `no program value matched ${JSON.stringify(assertion.valueMatches)}`);
  }
  if ("answerContains" in assertion) {
    return verdict(
      run.answer.includes(assertion.answerContains),
      `the answer contains "${assertion.answerContains}"`,
      `the answer does not contain "${assertion.answerContains}"`,
    );
  }
  if ("answerMatches" in assertion) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(assertion.answerMatches, "u");
    } catch (error) {
      return { assertion, status: "fail", message: `answerMatches is not a valid pattern: ${messageOf(error)}` };
    }
    return verdict(pattern.test(run.answer), `the answer matches /${assertion.answerMatches}/`, `the answer does not match /${assertion.answerMatches}/`);
  }
  if ("maxRequests" in assertion) {
    return verdict(
      run.requests <= assertion.maxRequests,
      `${run.requests} model requests (at most ${assertion.maxRequests})`,
      `${run.requests} model requests, more than ${assertion.maxRequests}`,
    );
  }
  if ("maxInputTokens" in assertion) {
    return verdict(
      run.inputTokens <= assertion.maxInputTokens,
      `${run.inputTokens} input tokens (at most ${assertion.maxInputTokens})`,
      `${run.inputTokens} input tokens, more than ${assertion.maxInputTokens}`,
    );
  }
  return verdict(run.error === undefined, "no error", `the run ended with: ${run.error ?? ""}`);
}

/** Evaluates every assertion; a run passes when none fails. */
export function checkAll(assertions: readonly Assertion[], run: RunFacts): { passed: boolean; results: AssertionResult[] } {
  const results = assertions.map((a) => check(a, run));
  return { passed: results.every((r) => r.status !== "fail"), results };
}
