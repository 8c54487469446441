/**
 * Benchmarks of the debugging timeline at 10 000 calls, in Node: reducing a run's events into
 * call records, recording them, laying out the waterfall, searching it, exporting and
 * importing a run file, comparing two runs and matching a replay. Prints figures only; time to
 * first paint in the browser is measured separately (render RecordedTimeline with a
 * syntheticRun).
 *
 *   npx tsx scripts/bench/timeline.ts
 */
import { pathToFileURL } from "node:url";
import type { RunEvent } from "../../lib/sandbox/types";
import { EMPTY_CALL_RECORDS, listCallRecords, reduceCallRecords, type CallRecordsAction, type CallRecordsState } from "../../lib/timeline/call-records";
import { compareRuns } from "../../lib/timeline/run-diff";
import { recordView } from "../../lib/timeline/record-view";
import { RunRecorder } from "../../lib/timeline/recorder";
import { createReplayHost } from "../../lib/host-calls/replay";
import { exportRunFile, parseRunFile } from "../../lib/timeline/run-file";
import { recordedCalls, type RunRecord } from "../../lib/timeline/run-record";
import { syntheticRun } from "../../lib/timeline/synthetic-run";
import { buildWaterfall } from "../../lib/timeline/waterfall";
import { median, printRows, type BenchRow } from "./rows";

const CALLS = 10_000;

function time(fn: () => unknown, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Times `fn` on fresh input each run (records cache derived data per object, so a reused one would measure the cache). */
function timeFresh<T>(prepare: () => T, fn: (input: T) => unknown, runs: number): number {
  const inputs = Array.from({ length: runs }, prepare);
  const samples = inputs.map((input) => {
    const start = performance.now();
    fn(input);
    return performance.now() - start;
  });
  return median(samples);
}

async function timeAsync(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** The engine events and host reports a live run of the record would have produced. */
function liveEvents(record: RunRecord): { events: RunEvent[]; actions: CallRecordsAction[] } {
  const runId = "bench";
  const events: RunEvent[] = [];
  const actions: CallRecordsAction[] = [{ type: "reset", runId }];
  for (const e of record.events) {
    let event: RunEvent | undefined;
    if (e.type === "call-start") event = { type: "call-start", callId: e.callId, namespace: e.namespace, name: e.name, args: e.args, time: e.time };
    else if (e.type === "call-end")
      event = e.ok
        ? { type: "call-end", callId: e.callId, time: e.time, ok: true, value: e.value }
        : { type: "call-end", callId: e.callId, time: e.time, ok: false, error: e.error };
    else if (e.type === "log") event = { type: "log", entry: { level: e.level, text: e.text, time: e.time } };
    else if (e.type === "call-info") actions.push({ type: "info", runId, callId: e.callId, info: e.info });
    if (event) {
      events.push(event);
      actions.push({ type: "event", runId, event });
    }
  }
  return { events, actions };
}

/** Runs the benchmark; one row per figure. */
export async function benchTimeline(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const record = syntheticRun(CALLS, 1);
  const { events, actions } = liveEvents(record);

  let state: CallRecordsState = EMPTY_CALL_RECORDS;
  rows.push({
    name: `reduce ${CALLS} calls' events into call records`,
    median: time(() => (state = actions.reduce(reduceCallRecords, EMPTY_CALL_RECORDS)), 9),
    unit: "ms",
    note: `${actions.length} actions (starts, ends, host info, logs), as a live run dispatches them`,
  });
  rows.push({
    name: `record ${CALLS} calls (RunRecorder, redaction included)`,
    median: time(() => {
      const recorder = new RunRecorder({ id: "bench", code: "", now: () => 0 });
      for (const event of events) recorder.onEvent(event);
      return recorder.finish({ ok: true, value: null, logs: [], stats: { wallMs: 1, hostCalls: CALLS, peakInFlight: 10 } });
    }, 9),
    unit: "ms",
  });

  const records = listCallRecords(state);
  const logs = recordView(record).logs;
  rows.push({
    name: `waterfall layout model, ${CALLS} calls`,
    median: time(() => buildWaterfall(records, { logs }), 21),
    unit: "ms",
    note: "positions, lanes, console lines, ticks",
  });
  rows.push({ name: "  grouped by server", median: time(() => buildWaterfall(records, { logs, groupBy: "server" }), 21), unit: "ms" });
  const fresh = listCallRecords(actions.reduce(reduceCallRecords, EMPTY_CALL_RECORDS));
  rows.push({
    name: "  first search (builds search text)",
    value: time(() => buildWaterfall(fresh, { logs, filter: { search: "item-42" } }), 1),
    unit: "ms",
    note: "one sample: the text is cached per record after",
  });
  rows.push({
    name: "  search again (cached text)",
    median: time(() => buildWaterfall(fresh, { logs, filter: { search: "item-43" } }), 21),
    unit: "ms",
    note: "per keystroke",
  });

  let text = "";
  rows.push({ name: `export a ${CALLS}-call run`, median: time(() => (text = exportRunFile(record)), 9), unit: "ms", note: "redaction + JSON.stringify" });
  rows.push({ name: "  file size", value: Buffer.byteLength(text) / 1024 / 1024, unit: "MB" });
  rows.push({
    name: `import a ${CALLS}-call run`,
    median: time(() => {
      const parsed = parseRunFile(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
    }, 9),
    unit: "ms",
    note: "JSON.parse + zod + structure checks",
  });
  const load = () => JSON.parse(text) as RunRecord;
  rows.push({ name: "  to call records (RunRecord → timeline)", median: timeFresh(load, (r) => recordView(r), 7), unit: "ms" });

  const other = syntheticRun(CALLS, 2);
  rows.push({
    name: `compare two ${CALLS}-call runs`,
    median: timeFresh(
      () => [load(), structuredClone(other)] as const,
      ([a, b]) => compareRuns(a, b),
      7,
    ),
    unit: "ms",
  });

  const signal = new AbortController().signal;
  const calls = recordedCalls(record);
  rows.push({
    name: `replay matching, ${CALLS} calls`,
    median: await timeAsync(async () => {
      const host = createReplayHost(record, { onMismatch: "stop" });
      for (const call of calls) await host[call.namespace]?.[call.name]?.(call.args, signal, { callId: call.callId })?.catch(() => undefined);
    }, 5),
    unit: "ms",
    note: "host functions called directly, in recorded order",
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printRows(await benchTimeline());
}
