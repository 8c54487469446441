/** Counts and spans over call records, for the timeline's summary line. Pure. */
import type { CallRecord } from "./call-records";

/** Counts by status, the most calls in flight at once, and the time from first start to last end. */
export interface CallSummary {
  total: number;
  ok: number;
  error: number;
  warning: number;
  running: number;
  cancelled: number;
  peakParallel: number;
  spanMs: number;
}

/** Summarises records; a running call counts as in flight from its start onwards. */
export function summarise(records: readonly CallRecord[]): CallSummary {
  const summary: CallSummary = { total: records.length, ok: 0, error: 0, warning: 0, running: 0, cancelled: 0, peakParallel: 0, spanMs: 0 };
  const edges: Array<[time: number, delta: number]> = [];
  let first = Infinity;
  let last = -Infinity;
  for (const record of records) {
    summary[record.status]++;
    edges.push([record.start, 1]);
    if (record.end !== undefined) edges.push([record.end, -1]);
    first = Math.min(first, record.start);
    last = Math.max(last, record.end ?? record.start);
  }
  // Ends sort before starts at the same instant: a call that starts as another ends does not overlap it.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  for (const [, delta] of edges) {
    inFlight += delta;
    summary.peakParallel = Math.max(summary.peakParallel, inFlight);
  }
  if (records.length > 0) summary.spanMs = last - first;
  return summary;
}
