/**
 * Compares two recorded runs call by call: which calls were added, removed or changed (other
 * arguments, another result or status), and whether the run's outcome changed. Pure.
 *
 * Pairing: first calls with the same tool and the same arguments, in order (so a run that only
 * reordered parallel calls shows no change); then, among the rest, calls to the same tool in
 * order (shown as "changed" with their arguments); whatever is left was added or removed. A
 * full sequence diff (LCS) would cost O(n·m) memory, 10⁸ cells for two 10 000-call runs; this
 * is O(n + m) and reads better for tool calls, whose identity is the tool and arguments.
 */
import { recordEnd, recordedCalls, recordStart, type RecordedCall, type RunRecord } from "./run-record";
import { canonicalJson as stableJson } from "../text/canonical-json";

/** What differs in a changed call. */
export type CallDifference = "arguments" | "result" | "status";

/** One row of the comparison, in b's order with a's removed calls where they were. */
export interface ComparedCall {
  kind: "same" | "changed" | "added" | "removed";
  a?: RecordedCall;
  b?: RecordedCall;
  differences: CallDifference[];
}

/** The comparison of two runs. */
export interface RunComparison {
  rows: ComparedCall[];
  counts: Record<ComparedCall["kind"], number>;
  sameCode: boolean;
  /** "ok" or the error kind, per run. */
  outcome: { a: string; b: string };
  /** The returned value (or error message) differs. */
  resultChanged: boolean;
  durationMs: { a: number | undefined; b: number | undefined };
}

/** A recorded call's status for comparison. */
export function recordedStatus(call: RecordedCall): "ok" | "error" | "cancelled" {
  switch (call.outcome.kind) {
    case "value":
    case "truncated":
      return "ok";
    case "error":
      return "error";
    case "pending":
      return "cancelled";
  }
}

// Each call's arguments are compared several times (two pairing passes, then the differences).
const argsTexts = new WeakMap<RecordedCall, string>();
function argsText(call: RecordedCall): string {
  let text = argsTexts.get(call);
  if (text === undefined) {
    text = call.args === undefined ? "" : stableJson(call.args);
    argsTexts.set(call, text);
  }
  return text;
}

function resultText(call: RecordedCall): string {
  const { outcome } = call;
  if (outcome.kind === "value") return stableJson(outcome.value);
  if (outcome.kind === "error") return `error:${outcome.error}`;
  if (outcome.kind === "truncated") return `truncated:${outcome.truncated.chars}:${outcome.truncated.preview}`;
  return "pending";
}

function differences(a: RecordedCall, b: RecordedCall): CallDifference[] {
  const found: CallDifference[] = [];
  if (argsText(a) !== argsText(b)) found.push("arguments");
  if (recordedStatus(a) !== recordedStatus(b)) found.push("status");
  if (resultText(a) !== resultText(b)) found.push("result");
  return found;
}

/** Pairs calls by key in order; returns b-index → a-index for the pairs made. */
function pairBy(
  a: readonly RecordedCall[],
  b: readonly RecordedCall[],
  key: (call: RecordedCall) => string,
  pairs: Map<number, number>,
  usedA: Set<number>,
): void {
  const queues = new Map<string, number[]>();
  a.forEach((call, i) => {
    if (usedA.has(i)) return;
    const k = key(call);
    const queue = queues.get(k);
    if (queue) queue.push(i);
    else queues.set(k, [i]);
  });
  const heads = new Map<string, number>();
  b.forEach((call, j) => {
    if (pairs.has(j)) return;
    const k = key(call);
    const queue = queues.get(k);
    const head = heads.get(k) ?? 0;
    const i = queue?.[head];
    if (i === undefined) return;
    heads.set(k, head + 1);
    pairs.set(j, i);
    usedA.add(i);
  });
}

/** Compares run a (before) with run b (after); see the file comment. */
export function compareRuns(a: RunRecord, b: RunRecord): RunComparison {
  const callsA = recordedCalls(a);
  const callsB = recordedCalls(b);
  const pairs = new Map<number, number>();
  const usedA = new Set<number>();
  const tool = (call: RecordedCall) => `${call.namespace}\u0000${call.name}`;
  pairBy(callsA, callsB, (call) => `${tool(call)}\u0000${argsText(call)}`, pairs, usedA);
  pairBy(callsA, callsB, tool, pairs, usedA);

  const removed = callsA.map((_, i) => i).filter((i) => !usedA.has(i));
  const rows: ComparedCall[] = [];
  let nextRemoved = 0;
  const flushRemovedBefore = (limit: number) => {
    while (nextRemoved < removed.length && (removed[nextRemoved] ?? Infinity) < limit) {
      rows.push({ kind: "removed", a: callsA[removed[nextRemoved] ?? -1], differences: [] });
      nextRemoved++;
    }
  };
  callsB.forEach((callB, j) => {
    const i = pairs.get(j);
    const callA = i === undefined ? undefined : callsA[i];
    if (i === undefined || !callA) {
      rows.push({ kind: "added", b: callB, differences: [] });
      return;
    }
    flushRemovedBefore(i);
    const found = differences(callA, callB);
    rows.push({ kind: found.length === 0 ? "same" : "changed", a: callA, b: callB, differences: found });
  });
  flushRemovedBefore(Infinity);

  const counts = { same: 0, changed: 0, added: 0, removed: 0 };
  for (const row of rows) counts[row.kind]++;
  const endA = recordEnd(a);
  const endB = recordEnd(b);
  const outcomeOf = (end: typeof endA) => (end === undefined ? "unfinished" : end.ok ? "ok" : end.error.kind);
  const resultOf = (end: typeof endA) => (end === undefined ? "" : end.ok ? stableJson(end.value) : `${end.error.kind}:${end.error.message}`);
  return {
    rows,
    counts,
    sameCode: recordStart(a)?.codeHash === recordStart(b)?.codeHash,
    outcome: { a: outcomeOf(endA), b: outcomeOf(endB) },
    resultChanged: resultOf(endA) !== resultOf(endB),
    durationMs: { a: endA?.stats.wallMs, b: endB?.stats.wallMs },
  };
}
