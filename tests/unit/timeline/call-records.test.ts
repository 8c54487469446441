import { describe, expect, it } from "vitest";
import {
  EMPTY_CALL_RECORDS,
  callRecordAt,
  findCallRecord,
  listCallRecords,
  reduceCallRecords,
  summarise,
  type CallRecord,
  type CallRecordsAction,
  type CallRecordsState,
} from "@/lib/timeline/call-records";
import { REDACTED } from "@/lib/secrets/redact";
import type { RunResult } from "@/lib/sandbox/types";

const RUN = "r1";
const stats = { wallMs: 100, hostCalls: 0, peakInFlight: 0 };
const okResult: RunResult = { ok: true, value: null, logs: [], stats };

function start(callId: number, time: number, args: unknown = {}, name = "get_quote"): CallRecordsAction {
  return { type: "event", runId: RUN, event: { type: "call-start", callId, namespace: "shipping", name, args, time } };
}
function end(callId: number, time: number, value: unknown = { ok: callId }): CallRecordsAction {
  return { type: "event", runId: RUN, event: { type: "call-end", callId, time, ok: true, value } };
}
function fail(callId: number, time: number, error: string): CallRecordsAction {
  return { type: "event", runId: RUN, event: { type: "call-end", callId, time, ok: false, error } };
}
function run(...actions: CallRecordsAction[]): CallRecordsState {
  return [{ type: "reset", runId: RUN } as const, ...actions].reduce(reduceCallRecords, EMPTY_CALL_RECORDS);
}

describe("reduceCallRecords", () => {
  it("records a call from start to end with duration and value", () => {
    const state = run(start(1, 5, { carrier: "dhl" }), end(1, 17, { price: 12 }));
    expect(listCallRecords(state)).toEqual([
      { callId: 1, namespace: "shipping", name: "get_quote", args: { carrier: "dhl" }, start: 5, end: 17, durationMs: 12, status: "ok", value: { price: 12 } },
    ]);
  });

  it("keeps records in start order, whatever order they end in", () => {
    const state = run(start(1, 1), start(2, 2), start(3, 3), end(3, 4), end(1, 5), fail(2, 6, "boom"));
    expect(listCallRecords(state).map((r) => [r.callId, r.status])).toEqual([
      [1, "ok"],
      [2, "error"],
      [3, "ok"],
    ]);
    expect(findCallRecord(state, 2)?.error).toBe("boom");
  });

  it("sorts a call-start that arrives late by its start time", () => {
    const state = run(start(1, 10), start(3, 30), start(2, 20), end(2, 25));
    expect(listCallRecords(state).map((r) => r.callId)).toEqual([1, 2, 3]);
    expect(findCallRecord(state, 2)?.status).toBe("ok");
    expect(findCallRecord(state, 3)?.status).toBe("running");
  });

  it("merges host info that arrives before the call-start", () => {
    const state = run(
      { type: "info", runId: RUN, callId: 1, info: { server: "Shipping Co", tool: "get-quote" } },
      { type: "info", runId: RUN, callId: 1, info: { resultBytes: 40 } },
      start(1, 1),
    );
    expect(callRecordAt(state, 0)).toMatchObject({ server: "Shipping Co", tool: "get-quote", resultBytes: 40, status: "running" });
    expect(state.pending.size).toBe(0);
  });

  it("merges host info that arrives after the call-start or the call-end", () => {
    const state = run(start(1, 1), { type: "info", runId: RUN, callId: 1, info: { server: "s", tool: "t" } }, end(1, 2), {
      type: "info",
      runId: RUN,
      callId: 1,
      info: { resultBytes: 9, server: undefined },
    });
    expect(callRecordAt(state, 0)).toMatchObject({ server: "s", tool: "t", resultBytes: 9, status: "ok" });
  });

  it("marks an ok call with output findings as a warning, before or after its end", () => {
    const findings = { outputFindings: [{ path: "structuredContent.price", message: "must be number" }] };
    const after = run(start(1, 1), end(1, 2), { type: "info", runId: RUN, callId: 1, info: findings });
    expect(callRecordAt(after, 0)?.status).toBe("warning");
    const before = run(start(1, 1), { type: "info", runId: RUN, callId: 1, info: findings }, end(1, 2));
    expect(callRecordAt(before, 0)?.status).toBe("warning");
    expect(callRecordAt(before, 0)?.outputFindings).toEqual(findings.outputFindings);
    // Findings never turn a failed call into a warning.
    const failed = run(start(1, 1), fail(1, 2, "no"), { type: "info", runId: RUN, callId: 1, info: findings });
    expect(callRecordAt(failed, 0)?.status).toBe("error");
  });

  it("keeps validation failures with the failed call", () => {
    const state = run(
      start(1, 1, { weightKg: "x" }),
      { type: "info", runId: RUN, callId: 1, info: { validation: "arguments.weightKg must be number" } },
      fail(1, 2, "Invalid arguments"),
    );
    expect(callRecordAt(state, 0)).toMatchObject({ status: "error", validation: "arguments.weightKg must be number", error: "Invalid arguments" });
  });

  it("ignores a second end, an end without a start and a duplicate start", () => {
    const once = run(start(1, 1), end(1, 2, "first"));
    expect(reduceCallRecords(once, end(1, 3, "second"))).toBe(once);
    expect(reduceCallRecords(once, end(9, 3))).toBe(once);
    expect(reduceCallRecords(once, start(1, 4))).toBe(once);
    expect(callRecordAt(once, 0)?.value).toBe("first");
  });

  it("marks calls still running at finish as cancelled, and ignores events after it", () => {
    const failed: RunResult = { ok: false, error: { kind: "timeout", message: "wall clock", clock: "wall" }, logs: [], stats: { ...stats, wallMs: 60 } };
    const state = run(start(1, 1), start(2, 2), end(1, 3), { type: "finish", runId: RUN, result: failed });
    expect(callRecordAt(state, 1)).toMatchObject({ status: "cancelled", end: 60, durationMs: 58, error: "The run ended (timeout) before this call returned." });
    expect(callRecordAt(state, 0)?.status).toBe("ok");
    expect(state.finished).toBe(true);
    expect(reduceCallRecords(state, end(2, 70))).toBe(state);
    expect(reduceCallRecords(state, { type: "finish", runId: RUN, result: okResult })).toBe(state);
    expect(callRecordAt(run(start(1, 1), { type: "finish", runId: RUN, result: okResult }), 0)?.error).toBe("The run finished before this call returned.");
  });

  it("ignores events, info and finish for another run, and log events", () => {
    const state = run(start(1, 1));
    const other: CallRecordsAction[] = [
      { type: "event", runId: "r0", event: { type: "call-start", callId: 2, namespace: "a", name: "b", args: {}, time: 2 } },
      { type: "event", runId: "r0", event: { type: "call-end", callId: 1, time: 3, ok: true, value: 1 } },
      { type: "info", runId: "r0", callId: 1, info: { server: "x" } },
      { type: "finish", runId: "r0", result: okResult },
      { type: "event", runId: RUN, event: { type: "log", entry: { level: "log", text: "hi", time: 1 } } },
    ];
    for (const action of other) expect(reduceCallRecords(state, action)).toBe(state);
    // Before any reset there is no current run at all.
    expect(reduceCallRecords(EMPTY_CALL_RECORDS, start(1, 1))).toBe(EMPTY_CALL_RECORDS);
  });

  it("starts over on reset, with a version never used before", () => {
    const first = run(start(1, 1), end(1, 2));
    const next = reduceCallRecords(first, { type: "reset", runId: "r2" });
    expect(next.count).toBe(0);
    expect(next.runId).toBe("r2");
    expect(next.version).toBeGreaterThan(first.version);
    expect(listCallRecords(first)).toHaveLength(1);
  });

  it("redacts secrets in arguments, values and errors before storing them", () => {
    const args = { query: "x", apiKey: "sk-123", headers: { Authorization: "Bearer abc" }, nested: [{ password: "hunter2" }] };
    const state = run(start(1, 1, args), end(1, 2, { token: "t-1", note: "Bearer xyz" }), start(2, 3), fail(2, 4, "Bearer leaked.value"));
    expect(callRecordAt(state, 0)?.args).toEqual({ query: "x", apiKey: REDACTED, headers: { Authorization: REDACTED }, nested: [{ password: REDACTED }] });
    expect(callRecordAt(state, 0)?.value).toEqual({ token: REDACTED, note: REDACTED });
    expect(callRecordAt(state, 1)?.error).toBe(REDACTED);
    expect(JSON.stringify(listCallRecords(state))).not.toMatch(/sk-123|hunter2|abc|xyz|t-1|leaked/);
  });

  it("is safe to apply twice from the same state, as React Strict Mode does", () => {
    const base = run(start(1, 1));
    const a = reduceCallRecords(base, start(2, 2));
    const b = reduceCallRecords(base, start(3, 2));
    expect(reduceCallRecords(base, start(2, 2))).toEqual(a);
    // Both branches share base's index; each must still find its own calls.
    expect(findCallRecord(reduceCallRecords(a, end(2, 5)), 2)?.status).toBe("ok");
    expect(findCallRecord(reduceCallRecords(b, end(3, 5)), 3)?.status).toBe("ok");
    expect(findCallRecord(b, 2)).toBeUndefined();
    expect(listCallRecords(base).map((r) => r.callId)).toEqual([1]);
  });

  it("reduces 10 000 calls correctly, copying at most one chunk per event", () => {
    const n = 10_000;
    const concurrency = 10;
    const actions: CallRecordsAction[] = [];
    // Calls run ten at a time: call i starts at i and ends at i + 10, after the next nine start.
    for (let i = 1; i <= n; i++) {
      if (i % 2 === 0) actions.push({ type: "info", runId: RUN, callId: i, info: { server: "srv", tool: `t${i}` } });
      actions.push(start(i, i, { i }));
      if (i % 2 === 1) actions.push({ type: "info", runId: RUN, callId: i, info: { server: "srv", tool: `t${i}` } });
      if (i > concurrency) actions.push(i % 7 === 0 ? fail(i - concurrency, i, "nope") : end(i - concurrency, i));
    }
    actions.push({ type: "finish", runId: RUN, result: { ...okResult, stats: { ...stats, wallMs: n + 5 } } });

    let state = reduceCallRecords(EMPTY_CALL_RECORDS, { type: "reset", runId: RUN });
    let shared = 0;
    let checked = 0;
    for (const action of actions) {
      const next = reduceCallRecords(state, action);
      if (next.chunks.length > 1 && state.chunks.length === next.chunks.length) {
        checked++;
        // At most one chunk is copied; info that waits for its call-start copies none.
        shared += next.chunks.filter((chunk, i) => chunk === state.chunks[i]).length >= next.chunks.length - 1 ? 1 : 0;
      }
      state = next;
    }
    expect(shared).toBe(checked);
    expect(checked).toBeGreaterThan(n);

    const records = listCallRecords(state);
    expect(records).toHaveLength(n);
    records.forEach((record: CallRecord, i) => {
      const id = i + 1;
      expect(record.callId).toBe(id);
      expect(record.tool).toBe(`t${id}`);
      expect(record.args).toEqual({ i: id });
      const expected = id > n - concurrency ? "cancelled" : (id + concurrency) % 7 === 0 ? "error" : "ok";
      expect(record.status).toBe(expected);
    });
    const summary = summarise(records);
    expect(summary.total).toBe(n);
    expect(summary.cancelled).toBe(concurrency);
    expect(summary.ok + summary.error + summary.cancelled).toBe(n);
    expect(summary.peakParallel).toBe(concurrency);
    expect(summary.spanMs).toBe(n + 5 - 1);
  });
});

describe("summarise", () => {
  const record = (callId: number, start: number, end: number | undefined, status: CallRecord["status"]): CallRecord => ({
    callId,
    namespace: "n",
    name: "f",
    args: {},
    start,
    status,
    ...(end !== undefined && { end, durationMs: end - start }),
  });

  it("counts statuses and finds the peak overlap", () => {
    const records = [record(1, 0, 10, "ok"), record(2, 2, 8, "error"), record(3, 5, 20, "warning"), record(4, 12, 15, "ok"), record(5, 13, 14, "cancelled")];
    expect(summarise(records)).toEqual({ total: 5, ok: 2, error: 1, warning: 1, running: 0, cancelled: 1, peakParallel: 3, spanMs: 20 });
  });

  it("does not count back-to-back calls as parallel", () => {
    expect(summarise([record(1, 0, 5, "ok"), record(2, 5, 9, "ok"), record(3, 9, 12, "ok")]).peakParallel).toBe(1);
  });

  it("counts running calls as in flight until the end of time", () => {
    const summary = summarise([record(1, 0, undefined, "running"), record(2, 50, 60, "ok"), record(3, 70, undefined, "running")]);
    expect(summary).toMatchObject({ running: 2, ok: 1, peakParallel: 2, spanMs: 70 });
  });

  it("summarises nothing as zeros", () => {
    expect(summarise([])).toEqual({ total: 0, ok: 0, error: 0, warning: 0, running: 0, cancelled: 0, peakParallel: 0, spanMs: 0 });
  });
});
