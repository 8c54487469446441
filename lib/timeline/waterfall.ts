/**
 * The waterfall's layout model: one row per call, its bar placed on a shared time axis by start
 * and end in ms (the view scales them with one CSS variable on the list, so a run growing longer
 * changes no row, only the scale), lanes by server,
 * console lines at their time, and axis ticks. Built in one pass over records already in start
 * order, so 10 000 calls lay out in a few milliseconds and the view can rebuild it whenever the
 * records' version changes. Pure: the component renders rows, it does not compute them.
 */
import type { LogEntry } from "../sandbox/types";
import type { CallRecord } from "./call-records";
import { callMatcher, displayStatus, isFilterEmpty, serverOf, type DisplayStatus, type WaterfallFilter } from "./waterfall-filter";

/** One row of the waterfall. */
export type WaterfallRow =
  | { kind: "lane"; key: string; lane: number; label: string; count: number }
  | {
      kind: "call";
      key: string;
      lane: number;
      record: CallRecord;
      status: DisplayStatus;
      startMs: number;
      endMs: number;
      open: boolean;
      /** 1 for a call made inside another (a skill's), shown under it. */
      depth: number;
    }
  | { kind: "log"; key: string; entry: LogEntry };

/** Rows in time order, or grouped under a header per server. */
export type GroupBy = "time" | "server";

/** What to lay out. */
export interface WaterfallOptions {
  filter?: WaterfallFilter;
  groupBy?: GroupBy;
  logs?: readonly LogEntry[];
  /** The run's length when known (its wall time); the axis is at least this long. */
  endMs?: number;
}

/** The laid-out waterfall. */
export interface WaterfallModel {
  rows: WaterfallRow[];
  /** Server names by lane index (first appearance order), for colours and the legend. */
  lanes: string[];
  spanMs: number;
  /** Tick positions on the axis, in ms. */
  ticks: number[];
  /** Calls shown after filtering, and calls in total. */
  shown: number;
  total: number;
}

/** Builds the layout model (see the file comment). `records` must be in start order, as the reducer keeps them. */
export function buildWaterfall(records: readonly CallRecord[], options: WaterfallOptions = {}): WaterfallModel {
  const lanes: string[] = [];
  const laneOf = new Map<string, number>();
  let spanMs = Math.max(1, options.endMs ?? 0);
  for (const record of records) {
    const server = serverOf(record);
    if (!laneOf.has(server)) {
      laneOf.set(server, lanes.length);
      lanes.push(server);
    }
    spanMs = Math.max(spanMs, record.end ?? record.start);
  }
  const logs = options.logs ?? [];
  for (const entry of logs) spanMs = Math.max(spanMs, entry.time);

  const matches = callMatcher(options.filter);
  const calls: Array<Extract<WaterfallRow, { kind: "call" }>> = [];
  for (const record of records) {
    if (!matches(record)) continue;
    const open = record.end === undefined;
    calls.push({
      kind: "call",
      key: `c${record.callId}`,
      lane: laneOf.get(serverOf(record)) ?? 0,
      record,
      status: displayStatus(record),
      startMs: record.start,
      // An open call runs to the end of the axis.
      endMs: Math.max(record.start, record.end ?? spanMs),
      open,
      depth: 0,
    });
  }
  nestUnderParents(calls);
  const shownLogs = visibleLogs(logs, options.filter).map(({ entry, index }): Extract<WaterfallRow, { kind: "log" }> => ({
    kind: "log",
    key: `l${index}`,
    entry,
  }));

  const rows = options.groupBy === "server" ? groupedRows(calls, shownLogs, lanes) : mergedByTime(calls, shownLogs);
  return { rows, lanes, spanMs, ticks: axisTicks(spanMs), shown: calls.length, total: records.length };
}

/**
 * Moves each call made inside another (a skill's inner calls, `parent`) right under its parent
 * and its parent's earlier children, with depth 1; in place, O(n). A call whose parent is not
 * shown stays where it is, at depth 0.
 */
function nestUnderParents(calls: Array<Extract<WaterfallRow, { kind: "call" }>>): void {
  if (!calls.some((call) => call.record.parent !== undefined)) return;
  const shown = new Set(calls.map((call) => call.record.callId));
  const children = new Map<number, Array<Extract<WaterfallRow, { kind: "call" }>>>();
  const top: Array<Extract<WaterfallRow, { kind: "call" }>> = [];
  for (const call of calls) {
    const parent = call.record.parent;
    if (parent !== undefined && shown.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push({ ...call, depth: 1 });
      children.set(parent, list);
    } else top.push(call);
  }
  calls.length = 0;
  for (const call of top) calls.push(call, ...(children.get(call.record.callId) ?? []));
}

/** Console lines show unless the filter narrows calls by server, tool or status; search applies to their text. */
function visibleLogs(logs: readonly LogEntry[], filter: WaterfallFilter | undefined): Array<{ entry: LogEntry; index: number }> {
  const all = logs.map((entry, index) => ({ entry, index }));
  if (isFilterEmpty(filter) || !filter) return all;
  if (filter.servers?.size || filter.tools?.size || filter.statuses?.size) return [];
  const needle = filter.search?.trim().toLowerCase() ?? "";
  return all.filter(({ entry }) => entry.text.toLowerCase().includes(needle));
}

/** Calls and console lines interleaved by time (a line at the same instant as a call start follows it). */
function mergedByTime(calls: Array<Extract<WaterfallRow, { kind: "call" }>>, logs: Array<Extract<WaterfallRow, { kind: "log" }>>): WaterfallRow[] {
  if (logs.length === 0) return calls;
  const rows: WaterfallRow[] = [];
  let l = 0;
  for (const call of calls) {
    for (let log = logs[l]; log && log.entry.time < call.record.start; log = logs[++l]) rows.push(log);
    rows.push(call);
  }
  rows.push(...logs.slice(l));
  return rows;
}

/** A header per server (lane order), its calls in start order, then a "console" group. */
function groupedRows(calls: Array<Extract<WaterfallRow, { kind: "call" }>>, logs: WaterfallRow[], lanes: readonly string[]): WaterfallRow[] {
  const byLane: WaterfallRow[][] = lanes.map(() => []);
  for (const call of calls) byLane[call.lane]?.push(call);
  const rows: WaterfallRow[] = [];
  byLane.forEach((laneRows, lane) => {
    if (laneRows.length === 0) return;
    rows.push({ kind: "lane", key: `h${lane}`, lane, label: lanes[lane] ?? "", count: laneRows.length }, ...laneRows);
  });
  if (logs.length > 0) rows.push({ kind: "lane", key: "h-console", lane: -1, label: "console", count: logs.length }, ...logs);
  return rows;
}

/** About six ticks at 1, 2 or 5 × 10ⁿ ms, from 0 up to the span. */
export function axisTicks(spanMs: number, target = 6): number[] {
  return rangeTicks(0, spanMs, target);
}

/** About `target` round ticks (1, 2 or 5 × 10ⁿ ms apart) within [fromMs, toMs]; for a zoomed axis. */
export function rangeTicks(fromMs: number, toMs: number, target = 6): number[] {
  const length = toMs - fromMs;
  if (!(length > 0) || !Number.isFinite(length)) return [fromMs];
  const rough = length / target;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(fromMs / step - 1e-9) * step; t <= toMs + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** The time range of the given rows (calls from start to end, console lines at their time), at least 1 ms long. */
export function rowsTimeRange(rows: readonly WaterfallRow[], spanMs: number): { fromMs: number; toMs: number } {
  let fromMs = Infinity;
  let toMs = -Infinity;
  for (const row of rows) {
    if (row.kind === "call") {
      fromMs = Math.min(fromMs, row.record.start);
      toMs = Math.max(toMs, row.record.end ?? spanMs);
    } else if (row.kind === "log") {
      fromMs = Math.min(fromMs, row.entry.time);
      toMs = Math.max(toMs, row.entry.time);
    }
  }
  if (!Number.isFinite(fromMs)) return { fromMs: 0, toMs: spanMs };
  return { fromMs, toMs: Math.max(toMs, fromMs + 1) };
}
