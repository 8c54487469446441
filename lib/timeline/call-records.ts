/**
 * The timeline's call records: every tool call of a run in start order, with server, tool,
 * arguments, status, duration and result or error. A pure reducer builds them from the run's
 * events plus what the host learns about each call (original names, validation, output
 * findings, raw size).
 *
 * Why chunks: a run may make thousands of calls and each makes at least two events. Copying a
 * flat array per event is O(n²) over a run; here records live in chunks of CHUNK_SIZE, so an
 * event copies one chunk plus the short list of chunk references and shares the rest with the
 * previous state. States stay immutable, which React's useReducer needs: it calls reducers
 * twice in Strict Mode and replays them when rebasing updates. `version` changes whenever the
 * records do, so views can use it as a memo key.
 */
import { redactSecrets } from "../secrets/redact";
import type { RunEvent, RunResult } from "../sandbox/types";

/** Where a call stands. "warning": it returned, but its output does not match the outputSchema. */
export type CallStatus = "running" | "ok" | "error" | "warning" | "cancelled";

/** Where a call's answer came from: the live server, a mock, or a recorded run (replay). */
export type CallSource = "live" | "mock" | "replay";

/** Where a call stands with the person, for tools that need approval. */
export type ApprovalState = "waiting" | "approved" | "denied";

/** The latest progress notification of a call. */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** A request the call's server made of the person while serving it (elicitation, sampling), and where it stands. */
export interface CallServerRequest {
  readonly kind: "elicitation" | "sampling";
  readonly message: string;
  readonly state: "waiting" | "accept" | "decline" | "cancel";
  /** The call's round it came in, on a 2026-07-28 connection (ServerRequestNote.round). */
  readonly round?: number;
}

/** The task a server turned the call into (lib/mcp/tasks.ts), where it stands. */
export interface CallTask {
  readonly taskId: string;
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** The server's status messages, in order (the latest last). */
  readonly messages: readonly string[];
  /** How many times its status was asked for. */
  readonly polls: number;
}

/** A log message the call's server sent while serving it. */
export interface CallServerLog {
  readonly level: string;
  readonly text: string;
}

/** A problem the host found with a call's output, at a readable path. */
export interface CallFinding {
  readonly path: string;
  readonly message: string;
}

/** One tool call as the timeline shows it. Arguments, value and error are already redacted. */
export interface CallRecord {
  readonly callId: number;
  /** The sanitised namespace and function name the code used. */
  readonly namespace: string;
  readonly name: string;
  /** The original server and tool names behind them, once the host reports them. */
  readonly server?: string;
  readonly tool?: string;
  readonly args: unknown;
  /** Milliseconds since the run started, on the engine's clock. */
  readonly start: number;
  readonly end?: number;
  readonly durationMs?: number;
  readonly status: CallStatus;
  readonly value?: unknown;
  readonly error?: string;
  /** Why the host refused the arguments, when it did. */
  readonly validation?: string;
  readonly outputFindings?: readonly CallFinding[];
  /** Size of the raw tool result in bytes, as the host measured it. */
  readonly resultBytes?: number;
  /** Absent means live; mocks and replays say so, so the timeline can mark them. */
  readonly source?: CallSource;
  readonly approval?: ApprovalState;
  readonly progress?: CallProgress;
  /** What the server asked the person during the call (elicitation, sampling), in order. */
  readonly serverRequests?: readonly CallServerRequest[];
  /** What the server logged while serving the call (the first few), live only: not kept in run records. */
  readonly serverLogs?: readonly CallServerLog[];
  /** The call waited for its server's cap on calls in flight (lib/host-calls/call-caps.ts). */
  readonly capWait?: CallCapWait;
  /** The server turned the call into a task. */
  readonly task?: CallTask;
  /** 1-based line of the code that made the call, when the engine reports it. */
  readonly line?: number;
  /** The call this one was made inside: a skill's call (lib/skills/skill-host.ts). */
  readonly parent?: number;
}

/** Waiting for a server's cap on calls in flight, then how long it waited. */
export interface CallCapWait {
  readonly cap: number;
  readonly state: "waiting" | "done";
  readonly waitedMs?: number;
}

/** What the host reports about a call by callId; may arrive before or after its call-start. */
export interface CallInfo {
  server?: string;
  tool?: string;
  validation?: string;
  outputFindings?: readonly CallFinding[];
  resultBytes?: number;
  source?: CallSource;
  approval?: ApprovalState;
  progress?: CallProgress;
  serverRequests?: readonly CallServerRequest[];
  serverLogs?: readonly CallServerLog[];
  capWait?: CallCapWait;
  task?: CallTask;
  line?: number;
  parent?: number;
}

// Every CallInfo field mergeInfo copies onto the record; the rest of a host's report is ignored.
const INFO_FIELDS = [
  "server",
  "tool",
  "validation",
  "outputFindings",
  "resultBytes",
  "source",
  "approval",
  "progress",
  "serverRequests",
  "serverLogs",
  "capWait",
  "task",
  "line",
  "parent",
] as const;

/** The reducer's state. Treat as opaque except through the accessors below. */
export interface CallRecordsState {
  readonly runId: string | undefined;
  /** Bumped on every change (resets included), never reused. */
  readonly version: number;
  readonly count: number;
  /** True once the run's result arrived: later events are ignored, late info still merges. */
  readonly finished: boolean;
  readonly chunks: readonly (readonly CallRecord[])[];
  /**
   * callId → position. Shared between states and only ever added to, so entries may be stale
   * for a given state (a rebased update put the call elsewhere); positionOf checks each hit.
   */
  readonly index: Map<number, number>;
  /** Info that arrived before its call-start; bounded by the calls in flight, so copied freely. */
  readonly pending: ReadonlyMap<number, CallInfo>;
}

/** Everything the reducer reacts to. Actions for a runId other than the state's are ignored. */
export type CallRecordsAction =
  | { type: "reset"; runId: string }
  | { type: "event"; runId: string; event: RunEvent }
  | { type: "info"; runId: string; callId: number; info: CallInfo }
  | { type: "finish"; runId: string; result: RunResult };

/** Records per chunk: an event copies at most this many references plus count / CHUNK_SIZE. */
const CHUNK_SIZE = 128;

/** The state before any run. */
export const EMPTY_CALL_RECORDS: CallRecordsState = {
  runId: undefined,
  version: 0,
  count: 0,
  finished: false,
  chunks: [],
  index: new Map(),
  pending: new Map(),
};

/** The record at a start-order position, or undefined. */
export function callRecordAt(state: CallRecordsState, position: number): CallRecord | undefined {
  if (position < 0 || position >= state.count) return undefined;
  return state.chunks[Math.floor(position / CHUNK_SIZE)]?.[position % CHUNK_SIZE];
}

function positionOf(state: CallRecordsState, callId: number): number | undefined {
  const hit = state.index.get(callId);
  // No entry: no state sharing this index has seen the call, so this one has not either.
  if (hit === undefined) return undefined;
  if (callRecordAt(state, hit)?.callId === callId) return hit;
  for (let i = 0; i < state.count; i++) if (callRecordAt(state, i)?.callId === callId) return i;
  return undefined;
}

/** The record for a callId, or undefined. */
export function findCallRecord(state: CallRecordsState, callId: number): CallRecord | undefined {
  const position = positionOf(state, callId);
  return position === undefined ? undefined : callRecordAt(state, position);
}

const flattened = new WeakMap<CallRecordsState, readonly CallRecord[]>();

/** All records in start order as one array, built once per state (O(n)); prefer callRecordAt for virtual lists. */
export function listCallRecords(state: CallRecordsState): readonly CallRecord[] {
  let list = flattened.get(state);
  if (!list) {
    list = state.chunks.flat();
    flattened.set(state, list);
  }
  return list;
}

function withRecordAt(state: CallRecordsState, position: number, record: CallRecord): CallRecordsState {
  const chunkIndex = Math.floor(position / CHUNK_SIZE);
  const chunk = state.chunks[chunkIndex]?.slice() ?? [];
  chunk[position % CHUNK_SIZE] = record;
  const chunks = state.chunks.slice();
  chunks[chunkIndex] = chunk;
  const count = Math.max(state.count, position + 1);
  return { ...state, chunks, count, version: state.version + 1 };
}

function chunked(records: readonly CallRecord[]): CallRecord[][] {
  const chunks: CallRecord[][] = [];
  for (let i = 0; i < records.length; i += CHUNK_SIZE) chunks.push(records.slice(i, i + CHUNK_SIZE));
  return chunks;
}

let loadedVersion = 0;

/**
 * A finished state holding `records` (already redacted, sorted by start), for a run loaded
 * from a record or a file: O(n), where replaying its events through the reducer would copy a
 * chunk per event. Versions count down from -1 so they never equal a reducer state's.
 */
export function finishedCallRecords(runId: string, records: readonly CallRecord[]): CallRecordsState {
  return {
    runId,
    version: --loadedVersion,
    count: records.length,
    finished: true,
    chunks: chunked(records),
    index: new Map(records.map((record, i) => [record.callId, i])),
    pending: new Map(),
  };
}

/** The status a finished call has, given what the host found about its output. */
function settledStatus(record: CallRecord): CallStatus {
  if (record.status !== "ok" && record.status !== "warning") return record.status;
  return record.outputFindings && record.outputFindings.length > 0 ? "warning" : "ok";
}

function mergeInfo(record: CallRecord, info: CallInfo): CallRecord {
  const merged: { -readonly [K in keyof CallRecord]: CallRecord[K] } = { ...record };
  const writable: Record<string, unknown> = merged;
  for (const field of INFO_FIELDS) if (info[field] !== undefined) writable[field] = info[field];
  merged.status = settledStatus(merged);
  return merged;
}

function startCall(state: CallRecordsState, event: Extract<RunEvent, { type: "call-start" }>): CallRecordsState {
  if (positionOf(state, event.callId) !== undefined) return state;
  let record: CallRecord = {
    callId: event.callId,
    namespace: event.namespace,
    name: event.name,
    args: redactSecrets(event.args),
    start: event.time,
    status: "running",
    // call-start carries the line of the person's code that made the call (the engine captures it).
    ...("line" in event && typeof event.line === "number" ? { line: event.line } : {}),
  };
  let pending = state.pending;
  const early = pending.get(event.callId);
  if (early) {
    record = mergeInfo(record, early);
    const rest = new Map(pending);
    rest.delete(event.callId);
    pending = rest;
  }
  const last = callRecordAt(state, state.count - 1);
  if (last && last.start > record.start) return insertOutOfOrder({ ...state, pending }, record);
  state.index.set(record.callId, state.count);
  return withRecordAt({ ...state, pending }, state.count, record);
}

/**
 * The engine emits call-starts in time order, so this only runs if a transport reorders
 * them: rebuild with a fresh index (O(n), rare) to keep records sorted by start.
 */
function insertOutOfOrder(state: CallRecordsState, record: CallRecord): CallRecordsState {
  const records = [...listCallRecords(state)];
  let at = records.length;
  while (at > 0 && (records[at - 1]?.start ?? 0) > record.start) at--;
  records.splice(at, 0, record);
  const index = new Map(records.map((r, i) => [r.callId, i]));
  return { ...state, chunks: chunked(records), count: records.length, index, version: state.version + 1 };
}

function endCall(state: CallRecordsState, event: Extract<RunEvent, { type: "call-end" }>): CallRecordsState {
  const position = positionOf(state, event.callId);
  const record = position === undefined ? undefined : callRecordAt(state, position);
  // An end without a start has nowhere to go; a second end for the same call changes nothing.
  if (position === undefined || !record || record.status !== "running") return state;
  const timing = { end: event.time, durationMs: Math.max(0, event.time - record.start) };
  const ended: CallRecord = event.ok
    ? { ...record, ...timing, status: "ok", value: redactSecrets(event.value) }
    : { ...record, ...timing, status: "error", error: redactSecrets(event.error) };
  return withRecordAt(state, position, { ...ended, status: settledStatus(ended) });
}

function addInfo(state: CallRecordsState, callId: number, info: CallInfo): CallRecordsState {
  const position = positionOf(state, callId);
  const record = position === undefined ? undefined : callRecordAt(state, position);
  if (position !== undefined && record) return withRecordAt(state, position, mergeInfo(record, info));
  const earlier = state.pending.get(callId);
  const pending = new Map(state.pending).set(callId, { ...earlier, ...definedOnly(info) });
  return { ...state, pending, version: state.version + 1 };
}

function definedOnly(info: CallInfo): CallInfo {
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined));
}

function finishRun(state: CallRecordsState, result: RunResult): CallRecordsState {
  const reason = result.ok ? "The run finished" : `The run ended (${result.error.kind})`;
  const error = `${reason} before this call returned.`;
  let next: CallRecordsState = { ...state, finished: true, version: state.version + 1 };
  for (let i = 0; i < state.count; i++) {
    const record = callRecordAt(state, i);
    if (record?.status !== "running") continue;
    const end = Math.max(record.start, result.stats.wallMs);
    next = withRecordAt(next, i, { ...record, status: "cancelled", end, durationMs: end - record.start, error });
  }
  return next;
}

/** Pure reducer for the call timeline. Returns the same state object when nothing changed. */
export function reduceCallRecords(state: CallRecordsState, action: CallRecordsAction): CallRecordsState {
  if (action.type === "reset") {
    return { ...EMPTY_CALL_RECORDS, runId: action.runId, version: state.version + 1, index: new Map(), pending: new Map() };
  }
  if (state.runId !== action.runId) return state;
  switch (action.type) {
    case "event": {
      const event = action.event;
      if (state.finished || event.type === "log") return state;
      return event.type === "call-start" ? startCall(state, event) : endCall(state, event);
    }
    case "info":
      return addInfo(state, action.callId, action.info);
    case "finish":
      return state.finished ? state : finishRun(state, action.result);
  }
}

// The summary lives in its own file; re-exported so existing imports keep working.
export { summarise, type CallSummary } from "./call-summary";
