import { describe, expect, it } from "vitest";
import { LiveRunStore } from "@/lib/timeline/live-run-store";
import { listCallRecords } from "@/lib/timeline/call-records";
import type { RunEvent } from "@/lib/sandbox/types";

const start = (callId: number, time: number): RunEvent => ({ type: "call-start", callId, namespace: "lab", name: "echo", args: { message: "m" }, time });
const end = (callId: number, time: number): RunEvent => ({ type: "call-end", callId, ok: true, value: { message: "m" }, time });

describe("LiveRunStore", () => {
  it("applies a frame's actions to the view and the records and tells each listener once", () => {
    const store = new LiveRunStore();
    let told = 0;
    const unsubscribe = store.subscribe(() => told++);
    store.apply([{ type: "start", runId: "r", startedAt: 0 }], [{ type: "reset", runId: "r" }]);
    const events = [start(1, 1), start(2, 2), end(1, 3), end(2, 4)];
    store.apply(
      events.map((event) => ({ type: "event" as const, runId: "r", event })),
      events.map((event) => ({ type: "event" as const, runId: "r", event })),
    );
    expect(told).toBe(2);
    const { view, calls } = store.snapshot();
    expect(view).toMatchObject({ status: "running", callsStarted: 2, callsEnded: 2 });
    expect(listCallRecords(calls).map((c) => [c.callId, c.status])).toEqual([
      [1, "ok"],
      [2, "ok"],
    ]);
    unsubscribe();
    store.apply([{ type: "start", runId: "s", startedAt: 0 }], []);
    expect(told).toBe(2);
  });

  it("keeps the same snapshot, and tells no one, when nothing changed", () => {
    const store = new LiveRunStore();
    let told = 0;
    store.subscribe(() => told++);
    const before = store.snapshot();
    store.apply([{ type: "event", runId: "other", event: start(1, 1) }], [{ type: "event", runId: "other", event: start(1, 1) }]);
    expect(store.snapshot()).toBe(before);
    expect(told).toBe(0);
  });
});
