/**
 * A skill's tests (docs/agents.md, "Skills"): the runs it was saved from, each kept as its
 * input, every call's recorded answer and the value it returned. Running a test replays the
 * skill's current code offline against those answers (the timeline's replay, lib/host-calls/
 * replay.ts) and says what changed: a call the recording does not have, a recorded call the code
 * no longer makes, a different value or error, and, when the tools offered now are given, a
 * recorded call whose tool is gone or whose schema no longer accepts what was recorded. Pure:
 * the sandbox run is injected.
 */
import type { HostFunctions, RunRequest, RunResult } from "../sandbox/types";
import { createReplayHost, type Divergence } from "../host-calls/replay";
import { mapHost } from "../host-calls/host-table";
import { validateArguments, validateStructuredContent } from "../mcp/validate";
import { redactDeep } from "../secrets/scrub";
import { canonicalJson } from "../text/canonical-json";
import { clip } from "../text/display";
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, recordEnd, recordedCalls, recordStart, type RecordedEvent, type RunRecord } from "../timeline/run-record";
import { hashCode } from "../text/hash";
import type { ToolDefinition } from "../codemode/types";
import type { Skill, SkillTest, SkillTestCall } from "./skill";

/** Runs a program in the sandbox with the given host functions. */
export type TestRunner = (request: RunRequest, host: HostFunctions) => Promise<RunResult>;

/** One thing a test found changed. */
export interface TestProblem {
  kind: "extra-call" | "missing-call" | "value" | "error" | "schema" | "tool-gone";
  message: string;
}

/** How one test went. */
export interface SkillTestResult {
  name: string;
  passed: boolean;
  problems: TestProblem[];
  /** What the code returned (or its error) this time. */
  actual: { ok: true; value?: unknown } | { ok: false; error: string };
}

/** A test from a recorded run of the skill's program, or why that run cannot be one. */
export function testFromRun(record: RunRecord, name: string): { ok: true; test: SkillTest } | { ok: false; message: string } {
  const end = recordEnd(record);
  if (!end) return { ok: false, message: "That run has not ended, so it cannot be a test." };
  const calls: SkillTestCall[] = [];
  for (const call of recordedCalls(record)) {
    // Calls made inside a skill's call are that skill's business: the test answers the skill's call itself.
    if (call.info.parent !== undefined) continue;
    const { outcome } = call;
    if (outcome.kind === "truncated")
      return { ok: false, message: `Call ${call.callId} (${call.server}.${call.tool}) returned too much to keep, so the run cannot be a test.` };
    if (outcome.kind === "pending")
      return { ok: false, message: `Call ${call.callId} (${call.server}.${call.tool}) never returned, so the run cannot be a test.` };
    calls.push({
      namespace: call.namespace,
      name: call.name,
      server: call.server,
      tool: call.tool,
      ...(call.args === undefined ? {} : { args: call.args }),
      outcome: outcome.kind === "value" ? { ok: true, ...(outcome.value === undefined ? {} : { value: outcome.value }) } : { ok: false, error: outcome.error },
    });
  }
  const input = recordStart(record)?.data ?? {};
  const expected = end.ok ? { ok: true as const, ...(end.value === undefined ? {} : { value: end.value }) } : { ok: false as const, error: end.error.message };
  return { ok: true, test: { name, input, calls, expected } };
}

/** The test as a recorded run, so the replay host answers from it. */
export function testRecord(test: SkillTest, code: string): RunRecord {
  const api: Record<string, string[]> = {};
  for (const call of test.calls) if (!(api[call.namespace] ??= []).includes(call.name)) api[call.namespace]?.push(call.name);
  const events: RecordedEvent[] = [{ type: "start", time: 0, codeHash: hashCode(code), limits: {}, api, data: test.input }];
  test.calls.forEach((call, index) => {
    const callId = index + 1;
    events.push({
      type: "call-start",
      time: index,
      callId,
      namespace: call.namespace,
      name: call.name,
      ...(call.args === undefined ? {} : { args: call.args }),
    });
    events.push({ type: "call-info", time: index, callId, info: { server: call.server, tool: call.tool } });
    events.push(
      call.outcome.ok
        ? { type: "call-end", time: index, callId, ok: true, ...(call.outcome.value === undefined ? {} : { value: call.outcome.value }) }
        : { type: "call-end", time: index, callId, ok: false, error: call.outcome.error },
    );
  });
  return { format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, id: `test-${test.name}`, startedAt: new Date(0).toISOString(), events };
}

const keyOf = (namespace: string, name: string, args: unknown): string => `${namespace}.${name}(${canonicalJson(redactDeep(args ?? null))})`;

function describeCall(call: { namespace: string; name: string; args?: unknown }): string {
  return `${call.namespace}.${call.name}(${clip(canonicalJson(call.args ?? {}), 120)})`;
}

/**
 * Runs one test: the skill's code with the test's input as data, its calls answered from the
 * recording (a call the recording has no answer for fails in the program, as replay's "stop"
 * does). `tools` (server → tool → definition, the tools offered now) adds the schema checks.
 */
export async function runSkillTest(
  skill: Pick<Skill, "code">,
  test: SkillTest,
  run: TestRunner,
  tools?: (server: string, tool: string) => ToolDefinition | undefined,
): Promise<SkillTestResult> {
  const problems: TestProblem[] = [];
  const divergences: Divergence[] = [];
  const answered: string[] = [];
  const replay = createReplayHost(testRecord(test, skill.code), { onMismatch: "stop", onDivergence: (d) => divergences.push(d) });
  const host = mapHost(replay, (fn, namespace, name) => async (args, signal, call) => {
    const value = await fn(args, signal, call).catch((error: unknown) => {
      if (!(error instanceof Error && "code" in error && error.code === "replay-diverged")) answered.push(keyOf(namespace, name, args));
      throw error;
    });
    answered.push(keyOf(namespace, name, args));
    return value;
  });
  const result = await run({ code: skill.code, data: test.input }, host);
  const actual: SkillTestResult["actual"] = result.ok
    ? { ok: true, ...(result.value === undefined ? {} : { value: result.value }) }
    : { ok: false, error: result.error.message };

  for (const divergence of divergences.slice(0, 1)) {
    const expected = divergence.expected ? `; the recording's next call is ${describeCall(divergence.expected)}` : "; the recording has no more calls";
    problems.push({ kind: "extra-call", message: `The code made a call the recording does not have: ${describeCall(divergence.actual)}${expected}.` });
  }
  const unused = new Map<string, number>();
  for (const key of answered) unused.set(key, (unused.get(key) ?? 0) - 1);
  const missing = test.calls.filter((call) => {
    const key = keyOf(call.namespace, call.name, call.args);
    const left = unused.get(key) ?? 0;
    if (left < 0) {
      unused.set(key, left + 1);
      return false;
    }
    return true;
  });
  if (missing.length > 0 && divergences.length === 0) {
    const first = missing[0];
    problems.push({
      kind: "missing-call",
      message: `The code no longer makes ${missing.length === 1 ? "a recorded call" : `${missing.length} recorded calls`}${first ? `, first ${describeCall(first)}` : ""}.`,
    });
  }

  const expected = test.expected;
  if (expected.ok && !actual.ok) problems.push({ kind: "error", message: `It failed: ${actual.error}; it returned a value when recorded.` });
  else if (!expected.ok && actual.ok) problems.push({ kind: "error", message: `It returned a value; it failed when recorded (${expected.error}).` });
  else if (expected.ok && actual.ok) {
    const difference = firstDifference(redactDeep(actual.value), expected.value, "value");
    if (difference) problems.push({ kind: "value", message: difference });
  } else if (!expected.ok && !actual.ok && expected.error !== actual.error)
    problems.push({ kind: "error", message: `It failed differently: "${clip(actual.error, 200)}", recorded "${clip(expected.error, 200)}".` });

  if (tools) problems.push(...schemaProblems(test, tools));
  return { name: test.name, passed: problems.length === 0, problems, actual };
}

/** Recorded calls whose tool is gone, or whose schemas no longer accept what was recorded. */
function schemaProblems(test: SkillTest, tools: (server: string, tool: string) => ToolDefinition | undefined): TestProblem[] {
  const problems: TestProblem[] = [];
  const seen = new Set<string>();
  for (const call of test.calls) {
    const label = `${call.server}.${call.tool}`;
    const key = keyOf(call.namespace, call.name, call.args);
    if (seen.has(key)) continue;
    seen.add(key);
    // The program's own discovery and resource reads are not a server's tools.
    if (call.namespace === "tools" || call.name === "$readResource") continue;
    const tool = tools(call.server, call.tool);
    if (!tool) {
      if (!seen.has(`gone:${label}`)) problems.push({ kind: "tool-gone", message: `${label} is not offered by the connected servers any more.` });
      seen.add(`gone:${label}`);
      continue;
    }
    const input = validateArguments(tool.inputSchema, call.args ?? {});
    if (!input.ok) problems.push({ kind: "schema", message: `${label}'s input schema no longer accepts the recorded arguments: ${input.message}` });
    if (tool.outputSchema && call.outcome.ok && typeof call.outcome.value === "object" && call.outcome.value !== null) {
      const findings = validateStructuredContent(tool.outputSchema, call.outcome.value).filter((f) => f.kind === "mismatch");
      const first = findings[0];
      if (first) problems.push({ kind: "schema", message: `${label}'s output schema no longer matches the recorded result: ${first.path} ${first.message}` });
    }
  }
  return problems;
}

/** The first place two JSON values differ, as a sentence, or undefined when they are equal. */
export function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (canonicalJson(actual ?? null) === canonicalJson(expected ?? null)) return undefined;
  const bothObjects = typeof actual === "object" && actual !== null && typeof expected === "object" && expected !== null;
  if (bothObjects && Array.isArray(actual) === Array.isArray(expected)) {
    if (Array.isArray(actual) && Array.isArray(expected) && actual.length !== expected.length)
      return `${path} has ${actual.length} items; ${expected.length} when recorded.`;
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const at = Array.isArray(actual) ? `${path}[${key}]` : `${path}.${key}`;
      if (!Object.hasOwn(a, key)) return `${at} is missing; it was ${clip(canonicalJson(e[key] ?? null), 120)} when recorded.`;
      if (!Object.hasOwn(e, key)) return `${at} is new: ${clip(canonicalJson(a[key] ?? null), 120)}.`;
      const inner = firstDifference(a[key], e[key], at);
      if (inner) return inner;
    }
  }
  return `${path} is ${clip(canonicalJson(actual ?? null), 120)}; it was ${clip(canonicalJson(expected ?? null), 120)} when recorded.`;
}
