import { describe, expect, it } from "vitest";
import { exportRunFile, parseRunFile, runFileName, type RunFileErrorCode } from "@/lib/timeline/run-file";
import { recordView } from "@/lib/timeline/record-view";
import { EMPTY_CALL_RECORDS, listCallRecords, reduceCallRecords, type CallRecordsAction } from "@/lib/timeline/call-records";
import type { RunRecord } from "@/lib/timeline/run-record";
import { withApprovals } from "@/lib/host-calls/approvals";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import { fakeTool, recordRun } from "./helpers";

function refused(text: string, code: RunFileErrorCode): string {
  const parsed = parseRunFile(text);
  if (parsed.ok) throw new Error("expected the file to be refused");
  expect(parsed.error.code).toBe(code);
  return parsed.error.message;
}

describe("run files", () => {
  it("round-trips a recorded run: export, import, same record and same timeline", async () => {
    const add = fakeTool(
      (args) => ({ sum: Number(args.a) + Number(args.b) }),
      (args) => Number(args.a),
    );
    const code = `
      console.log("go");
      const r = await Promise.all([math.add({ a: 5, b: 1 }), math.add({ a: 1, b: 2 })]);
      try { await math.missing(); } catch (e) { console.error(e.message); }
      return r;`;
    const { record } = await recordRun(code, () => ({ math: { add, missing: () => Promise.reject(new Error("no such thing")) } }));
    const text = exportRunFile(record);
    const parsed = parseRunFile(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.record).toEqual(record);
    const view = recordView(parsed.record);
    expect(listCallRecords(view.calls).map((c) => c.status)).toEqual(["ok", "ok", "error"]);
    expect(view.logs.map((l) => l.text)).toEqual(["go", "no such thing"]);
    expect(view.result?.ok).toBe(true);
  });

  it("shows a loaded run exactly as the live reducer showed it", async () => {
    const add = fakeTool(
      (args) => ({ sum: Number(args.a) + Number(args.b) }),
      (args) => Number(args.a) * 5,
    );
    const code = `
      const r = await Promise.all([math.add({ a: 5, b: 1 }), math.add({ a: 1, b: 2 }), math.wipe({ all: true }).catch((e) => e.message)]);
      try { await math.missing({}); } catch (e) { r.push(e.message); }
      return r;`;
    const { record } = await recordRun(code, (report) =>
      withApprovals(
        { math: { add, wipe: fakeTool(() => "wiped"), missing: () => Promise.reject(new Error("no such thing")) } },
        {
          needsApproval: (_s, tool) => tool === "wipe",
          request: () => Promise.resolve("deny"),
          onInfo: report,
        },
      ),
    );
    expect(listCallRecords(recordView(record).calls)).toEqual(listCallRecords(liveState(record)));
    expect(listCallRecords(recordView(record).calls).map((c) => `${c.name}:${c.status}:${c.approval ?? ""}`)).toEqual([
      "add:ok:",
      "add:ok:",
      "wipe:error:denied",
      "missing:error:",
    ]);
  });

  it("round-trips a 10 000-call run", () => {
    const record = syntheticRun(10_000);
    const parsed = parseRunFile(exportRunFile(record));
    expect(parsed.ok && parsed.record.events.length).toBe(record.events.length);
  });

  it("names files safely", () => {
    const record = { ...syntheticRun(1), id: "run-ab/c:1" };
    expect(runFileName(record)).toBe("run-run-ab_c_1-2026-01-01T00-00-00Z.json");
  });

  it("refuses corrupt and foreign files with clear errors", () => {
    const good = exportRunFile(syntheticRun(3));
    expect(refused(good.slice(0, good.length / 2), "not-json")).toMatch(/^This file is not JSON \(/);
    expect(refused("", "not-json")).toMatch(/not JSON/);
    expect(refused('{"name":"package.json"}', "not-a-run-file")).toMatch(/not a Code Mode Playground run/);
    expect(refused("[1,2,3]", "not-a-run-file")).toMatch(/format/);
    const future = JSON.stringify({ ...JSON.parse(good), version: 2 });
    expect(refused(future, "unsupported-version")).toBe("This run file is version 2; this playground reads version 1.");

    const damaged = JSON.parse(good) as { events: Array<Record<string, unknown>> };
    damaged.events[1] = { ...damaged.events[1], callId: "one" };
    expect(refused(JSON.stringify(damaged), "invalid")).toMatch(/^This run file is damaged: events\.1\.callId: /);

    const unknownEvent = JSON.parse(good) as { events: Array<Record<string, unknown>> };
    unknownEvent.events.push({ type: "explode", time: 1 });
    expect(refused(JSON.stringify(unknownEvent), "invalid")).toMatch(/events\.\d+/);

    const orphanEnd = JSON.parse(good) as { events: Array<Record<string, unknown>> };
    orphanEnd.events.splice(1, 0, { type: "call-end", time: 0, callId: 99, ok: false, error: "x" });
    expect(refused(JSON.stringify(orphanEnd), "invalid")).toBe("This run file is damaged: events.1 ends call 99, which never started.");

    const noStart = JSON.parse(good) as { events: unknown[] };
    noStart.events.shift();
    expect(refused(JSON.stringify(noStart), "invalid")).toMatch(/events\.0 must be the run's start/);
  });

  it("keeps a __proto__ key in arguments as data", () => {
    const record = syntheticRun(1);
    const text = exportRunFile(record).replace('"args":{', '"args":{"__proto__":{"polluted":true},');
    const parsed = parseRunFile(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const start = parsed.record.events.find((e) => e.type === "call-start");
    expect(Object.keys((start as { args: object }).args)).toContain("__proto__");
  });
});

/** The call records the live reducer builds from the record's events, as the workbench would have. */
function liveState(record: RunRecord) {
  const runId = record.id;
  const actions: CallRecordsAction[] = [{ type: "reset", runId }];
  for (const e of record.events) {
    if (e.type === "call-start") {
      const line = e.line === undefined ? {} : { line: e.line };
      actions.push({
        type: "event",
        runId,
        event: { type: "call-start", callId: e.callId, namespace: e.namespace, name: e.name, args: e.args, time: e.time, ...line },
      });
    } else if (e.type === "call-end")
      actions.push({
        type: "event",
        runId,
        event: e.ok
          ? { type: "call-end", callId: e.callId, time: e.time, ok: true, value: e.value }
          : { type: "call-end", callId: e.callId, time: e.time, ok: false, error: e.error },
      });
    else if (e.type === "call-info") actions.push({ type: "info", runId, callId: e.callId, info: e.info });
    else if (e.type === "approval") actions.push({ type: "info", runId, callId: e.callId, info: { approval: e.state } });
    else if (e.type === "end")
      actions.push({
        type: "finish",
        runId,
        result: e.ok ? { ok: true, value: e.value, logs: [], stats: e.stats } : { ok: false, error: e.error, logs: [], stats: e.stats },
      });
  }
  return actions.reduce(reduceCallRecords, EMPTY_CALL_RECORDS);
}
