import { describe, expect, it } from "vitest";
import { errorLocation, reduceRunView, statusLabel, type RunView } from "@/lib/timeline/run-view";
import type { RunResult } from "@/lib/sandbox/types";

const stats = { wallMs: 3, hostCalls: 0, peakInFlight: 0 };

describe("reduceRunView", () => {
  it("collects logs and call counts for the current run only", () => {
    let view: RunView = { status: "idle" };
    view = reduceRunView(view, { type: "start", runId: "r1", startedAt: 10 });
    view = reduceRunView(view, { type: "event", runId: "r1", event: { type: "log", entry: { level: "log", text: "hi", time: 1 } } });
    view = reduceRunView(view, {
      type: "event",
      runId: "r1",
      event: { type: "call-start", callId: 1, namespace: "lab", name: "echo", args: {}, time: 2 },
    });
    view = reduceRunView(view, { type: "event", runId: "r1", event: { type: "call-end", callId: 1, time: 3, ok: true, value: 1 } });
    // A late event from an older run must not leak into this one.
    view = reduceRunView(view, { type: "event", runId: "r0", event: { type: "log", entry: { level: "warn", text: "old", time: 1 } } });
    expect(view).toEqual({
      status: "running",
      runId: "r1",
      startedAt: 10,
      logs: [{ level: "log", text: "hi", time: 1 }],
      callsStarted: 1,
      callsEnded: 1,
    });
    expect(statusLabel(view)).toBe("running");
  });

  it("ignores a finish from a run that is no longer current", () => {
    const running = reduceRunView({ status: "idle" }, { type: "start", runId: "r2", startedAt: 0 });
    const result: RunResult = { ok: true, value: 1, logs: [], stats };
    expect(reduceRunView(running, { type: "finish", runId: "r1", result })).toBe(running);
    const done = reduceRunView(running, { type: "finish", runId: "r2", result });
    expect(done).toEqual({ status: "done", runId: "r2", result });
    expect(statusLabel(done)).toBe("ok");
  });

  it("labels a failed run by its error kind and locates it for the editor", () => {
    const result: RunResult = {
      ok: false,
      error: { kind: "syntax", message: "Unexpected token", line: 3, column: 7 },
      logs: [],
      stats,
    };
    const done = reduceRunView({ status: "idle" }, { type: "finish", runId: "r3", result });
    expect(statusLabel(done)).toBe("syntax");
    expect(errorLocation(done)).toEqual({ line: 3, column: 7, message: "syntax: Unexpected token" });
    const timeout: RunResult = { ok: false, error: { kind: "timeout", message: "CPU time limit" }, logs: [], stats };
    expect(errorLocation(reduceRunView(done, { type: "finish", runId: "r4", result: timeout }))).toBeUndefined();
  });
});
