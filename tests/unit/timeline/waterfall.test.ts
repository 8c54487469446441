import { describe, expect, it } from "vitest";
import { EMPTY_CALL_RECORDS, listCallRecords, reduceCallRecords, type CallRecordsAction } from "@/lib/timeline/call-records";
import { recordView } from "@/lib/timeline/record-view";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import { axisTicks, buildWaterfall } from "@/lib/timeline/waterfall";
import { facetsOf, searchText } from "@/lib/timeline/waterfall-filter";
import type { LogEntry } from "@/lib/sandbox/types";

const RUN = "r";
const actions: CallRecordsAction[] = [
  { type: "reset", runId: RUN },
  { type: "event", runId: RUN, event: { type: "call-start", callId: 1, namespace: "shipping", name: "get_quote", args: { carrier: "dhl" }, time: 0 } },
  { type: "event", runId: RUN, event: { type: "call-start", callId: 2, namespace: "store", name: "place_order", args: { cartId: "c1" }, time: 10 } },
  { type: "info", runId: RUN, callId: 2, info: { approval: "waiting" } },
  { type: "event", runId: RUN, event: { type: "call-start", callId: 3, namespace: "shipping", name: "track", args: { id: "T-9" }, time: 20 } },
  { type: "event", runId: RUN, event: { type: "call-end", callId: 1, ok: true, value: { price: 12.5 }, time: 50 } },
  { type: "event", runId: RUN, event: { type: "call-end", callId: 3, ok: false, error: "no such parcel", time: 100 } },
  { type: "info", runId: RUN, callId: 1, info: { server: "Shipping Co", tool: "get_quote", source: "mock" } },
];
const records = listCallRecords(actions.reduce(reduceCallRecords, EMPTY_CALL_RECORDS));
const logs: LogEntry[] = [
  { level: "log", text: "before anything", time: 0 },
  { level: "warn", text: "quote arrived", time: 55 },
];

describe("buildWaterfall", () => {
  it("places bars by start and end on one axis, lanes by server, status colours and open bars", () => {
    const model = buildWaterfall(records, { endMs: 200 });
    expect(model.spanMs).toBe(200);
    expect(model.lanes).toEqual(["Shipping Co", "store", "shipping"]);
    expect(model.rows.map((r) => (r.kind === "call" ? [r.record.callId, r.lane, r.status, r.startMs, r.endMs, r.open] : r.kind))).toEqual([
      [1, 0, "ok", 0, 50, false],
      [2, 1, "waiting", 10, 200, true],
      [3, 2, "error", 20, 100, false],
    ]);
    expect(model.ticks).toEqual([0, 50, 100, 150, 200]);
  });

  it("puts console lines at their time and groups by server on request", () => {
    const byTime = buildWaterfall(records, { logs });
    expect(byTime.rows.map((r) => r.key)).toEqual(["c1", "l0", "c2", "c3", "l1"]);
    const byServer = buildWaterfall(records, { logs, groupBy: "server" });
    expect(byServer.rows.map((r) => r.key)).toEqual(["h0", "c1", "h1", "c2", "h2", "c3", "h-console", "l0", "l1"]);
  });

  it("filters by server, tool and status, and searches arguments, results and errors", () => {
    expect(buildWaterfall(records, { logs, filter: { servers: new Set(["store"]) } }).rows.map((r) => r.key)).toEqual(["c2"]);
    expect(buildWaterfall(records, { filter: { tools: new Set(["shipping.track"]) } }).rows.map((r) => r.key)).toEqual(["c3"]);
    expect(buildWaterfall(records, { filter: { statuses: new Set(["waiting", "error"] as const) } }).shown).toBe(2);
    expect(buildWaterfall(records, { logs, filter: { search: "12.5" } }).rows.map((r) => r.key)).toEqual(["c1"]);
    expect(buildWaterfall(records, { logs, filter: { search: "PARCEL" } }).rows.map((r) => r.key)).toEqual(["c3"]);
    expect(buildWaterfall(records, { logs, filter: { search: "quote" } }).rows.map((r) => r.key)).toEqual(["c1", "l1"]);
    expect(searchText(records[1]!)).toContain('"cartid":"c1"');
  });

  it("counts facets for the filter menus", () => {
    const facets = facetsOf(records);
    expect(facets.servers).toEqual([
      { value: "shipping", count: 1 },
      { value: "Shipping Co", count: 1 },
      { value: "store", count: 1 },
    ]);
    expect(facets.statuses).toEqual([
      { value: "ok", count: 1 },
      { value: "error", count: 1 },
      { value: "waiting", count: 1 },
    ]);
  });

  it("lays out a 10 000-call recorded run", () => {
    const view = recordView(syntheticRun(10_000));
    const model = buildWaterfall(listCallRecords(view.calls), { logs: view.logs, endMs: view.result?.stats.wallMs });
    expect(model.shown).toBe(10_000);
    expect(model.rows).toHaveLength(10_000 + view.logs.length);
    for (const row of model.rows) if (row.kind === "call") expect(row.endMs).toBeLessThanOrEqual(model.spanMs);
  });

  it("picks round tick steps", () => {
    expect(axisTicks(1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(axisTicks(7_300)).toEqual([0, 2000, 4000, 6000]);
    expect(axisTicks(0)).toEqual([0]);
  });
});
