/**
 * Turns a RunRecord back into what the timeline view shows live: call records (the same shape
 * the live reducer builds, so a loaded file and a live run look alike), console lines and the
 * run's outcome. Built directly from the assembled calls in O(n): the record is already
 * redacted, and feeding 30 000 events through the live reducer would copy a chunk per event.
 * Pure.
 */
import type { LogEntry, RunResult } from "../sandbox/types";
import { finishedCallRecords, type CallRecord, type CallRecordsState, type CallStatus } from "./call-records";
import { recordEnd, recordedCalls, type RecordedCall, type RunRecord } from "./run-record";

/** A recorded run as the timeline shows it. */
export interface RecordView {
  calls: CallRecordsState;
  logs: LogEntry[];
  /** The run's outcome; undefined when the record stops before the end. */
  result: RunResult | undefined;
}

const views = new WeakMap<RunRecord, RecordView>();

/** Builds (once per record) the call records, console lines and outcome of a recorded run. */
export function recordView(record: RunRecord): RecordView {
  const cached = views.get(record);
  if (cached) return cached;
  const logs: LogEntry[] = [];
  for (const event of record.events) if (event.type === "log") logs.push({ level: event.level, text: event.text, time: event.time });
  const end = recordEnd(record);
  const result: RunResult | undefined = end
    ? end.ok
      ? { ok: true, value: end.value, logs, stats: end.stats }
      : { ok: false, error: end.error, logs, stats: end.stats }
    : undefined;
  const ended = end ? `The run ${end.ok ? "finished" : `ended (${end.error.kind})`} before this call returned.` : undefined;
  const records = recordedCalls(record)
    .map((call) => toCallRecord(call, end?.time, ended))
    .sort((a, b) => a.start - b.start || a.callId - b.callId);
  const view = { calls: finishedCallRecords(record.id, records), logs, result };
  views.set(record, view);
  return view;
}

function toCallRecord(call: RecordedCall, endTime: number | undefined, ended: string | undefined): CallRecord {
  const { info, outcome } = call;
  const record: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
    callId: call.callId,
    namespace: call.namespace,
    name: call.name,
    args: call.args,
    start: call.start,
    status: "running",
  };
  if (info.server !== undefined) record.server = info.server;
  if (info.tool !== undefined) record.tool = info.tool;
  if (info.validation !== undefined) record.validation = info.validation;
  if (info.outputFindings !== undefined) record.outputFindings = info.outputFindings;
  if (info.resultBytes !== undefined) record.resultBytes = info.resultBytes;
  if (info.source !== undefined) record.source = info.source;
  if (info.line !== undefined) record.line = info.line;
  if (info.parent !== undefined) record.parent = info.parent;
  if (call.approval !== undefined) record.approval = call.approval;
  if (call.progress !== undefined) record.progress = call.progress;
  let end = call.end;
  let status: CallStatus;
  switch (outcome.kind) {
    case "value":
      record.value = outcome.value;
      status = info.outputFindings?.length ? "warning" : "ok";
      break;
    case "truncated":
      record.value = truncatedMarker(outcome.truncated);
      status = info.outputFindings?.length ? "warning" : "ok";
      break;
    case "error":
      record.error = outcome.error;
      status = "error";
      break;
    case "pending":
      // As the live reducer does at finish: a call still running when the run ended was cancelled.
      if (endTime === undefined || ended === undefined) {
        status = "running";
      } else {
        status = "cancelled";
        record.error = ended;
        end = Math.max(call.start, endTime);
      }
  }
  record.status = status;
  if (end !== undefined) {
    record.end = end;
    record.durationMs = Math.max(0, end - call.start);
  }
  return record;
}

/** What a too-large recorded value shows as: its size and the start of its JSON. */
export function truncatedMarker(truncated: { chars: number; preview: string }): { truncated: string; preview: string } {
  return { truncated: `${truncated.chars} characters of JSON, too large to keep in the record`, preview: truncated.preview };
}
