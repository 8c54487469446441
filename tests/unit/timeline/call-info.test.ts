import { describe, expect, it } from "vitest";
import { EMPTY_CALL_RECORDS, findCallRecord, reduceCallRecords, type CallRecordsAction } from "@/lib/timeline/call-records";
import type { RunEvent } from "@/lib/sandbox/types";

const RUN = "r";
const reset: CallRecordsAction = { type: "reset", runId: RUN };

describe("call records: the debugger's extra call info", () => {
  it("merges source, approval, progress and line into the record", () => {
    const state = [
      reset,
      { type: "info", runId: RUN, callId: 1, info: { approval: "waiting" } },
      { type: "event", runId: RUN, event: { type: "call-start", callId: 1, namespace: "db", name: "wipe", args: {}, time: 1 } },
      { type: "info", runId: RUN, callId: 1, info: { progress: { progress: 1, total: 4, message: "one" } } },
      { type: "info", runId: RUN, callId: 1, info: { approval: "approved", source: "live", line: 7 } },
    ].reduce((s, a) => reduceCallRecords(s, a as CallRecordsAction), EMPTY_CALL_RECORDS);
    expect(findCallRecord(state, 1)).toMatchObject({
      status: "running",
      approval: "approved",
      source: "live",
      line: 7,
      progress: { progress: 1, total: 4, message: "one" },
    });
  });

  it("takes the calling line from call-start once the engine reports it there", () => {
    const event = { type: "call-start", callId: 1, namespace: "db", name: "read", args: {}, time: 1, line: 12 } as RunEvent;
    const state = [reset, { type: "event", runId: RUN, event } as CallRecordsAction].reduce(reduceCallRecords, EMPTY_CALL_RECORDS);
    expect(findCallRecord(state, 1)?.line).toBe(12);
  });
});
