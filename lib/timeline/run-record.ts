/**
 * A run record: one run of the sandbox as an ordered, JSON-serialisable event log. It is what
 * the history keeps, what a run file holds, and what replay and comparison read. Every value
 * in it is already redacted (see recorder.ts); nothing here runs.
 *
 * Times are milliseconds since the run started. Engine events (calls, logs, end) carry the
 * engine's clock; host events (call info, progress, approvals) the recorder's, which starts a
 * moment earlier on the main thread, so they may sit a few milliseconds off their call.
 */
import type { LogLevel, RunStats, SandboxError, SandboxLimits } from "../sandbox/types";
import type { ApprovalState, CallFinding, CallSource } from "./call-records";

/** Names a run file by what it is, so an unrelated JSON file is refused with a clear message. */
export const RUN_FILE_FORMAT = "code-mode-playground/run";

/** The run file version this code writes. Bump on an incompatible change; import checks it. */
export const RUN_FILE_VERSION = 1;

/** How a server and its tools appeared to the code (sanitised names → original names). */
export interface RecordedNamespace {
  namespace: string;
  server: string;
  tools: Array<{ fn: string; tool: string }>;
}

/** A call result too large to keep: its size and the start of its JSON text. */
export interface TruncatedValue {
  chars: number;
  preview: string;
}

/** What the host reported about a call, as recorded (the raw MCP result is not kept). */
export interface RecordedCallInfo {
  server?: string;
  tool?: string;
  validation?: string;
  argumentWarnings?: string[];
  outputFindings?: CallFinding[];
  resultBytes?: number;
  isError?: boolean;
  source?: CallSource;
  /** What the server asked the person during the call (elicitation), the latest state of each. */
  serverRequests?: Array<{ kind: "elicitation" | "sampling"; message: string; state: "waiting" | "accept" | "decline" | "cancel"; round?: number }>;
  /** The call waited for its server's cap on calls in flight. */
  capWait?: { cap: number; state: "waiting" | "done"; waitedMs?: number };
  /** The task the server turned the call into, as it last stood. */
  task?: { taskId: string; status: "working" | "input_required" | "completed" | "failed" | "cancelled"; messages: string[]; polls: number };
  line?: number;
  /** The call this one was made inside (a skill's call): nested on the timeline, left out of the code's own calls. */
  parent?: number;
}

/** The run began: what ran and under which limits. */
export interface RecordedStart {
  type: "start";
  time: number;
  /** Non-cryptographic hash of the code as run; equal hashes mean "same code" in history and compare. */
  codeHash: string;
  /** The code, with credential-looking text scrubbed; absent when the recorder was told not to keep it. */
  code?: string;
  limits: Partial<SandboxLimits>;
  /** Function names by namespace, as the guest saw them (replay offers exactly these). */
  api: Record<string, string[]>;
  names?: RecordedNamespace[];
  /** The id of the run this one replayed, when it was a replay. */
  replayOf?: string;
  /** The run's `data` globals (redacted), when it had any: a skill's inputs. */
  data?: Record<string, unknown>;
}

/** Everything a run record's log may hold, in time order. */
export type RecordedEvent =
  | RecordedStart
  /** `args` is absent when the code passed none (JSON has no undefined). */
  | { type: "call-start"; time: number; callId: number; namespace: string; name: string; args?: unknown; line?: number }
  | { type: "call-info"; time: number; callId: number; info: RecordedCallInfo }
  | { type: "progress"; time: number; callId: number; progress: number; total?: number; message?: string }
  | { type: "approval"; time: number; callId: number; state: ApprovalState }
  | { type: "call-end"; time: number; callId: number; ok: true; value?: unknown; truncated?: TruncatedValue }
  | { type: "call-end"; time: number; callId: number; ok: false; error: string }
  | { type: "log"; time: number; level: LogLevel; text: string }
  | { type: "end"; time: number; ok: true; value: unknown; stats: RunStats }
  | { type: "end"; time: number; ok: false; error: SandboxError; stats: RunStats };

/** One run, ready to store or export. */
export interface RunRecord {
  format: typeof RUN_FILE_FORMAT;
  version: typeof RUN_FILE_VERSION;
  id: string;
  title?: string;
  /** Wall-clock start on the person's machine, ISO 8601. */
  startedAt: string;
  events: RecordedEvent[];
  /**
   * The MCP Apps of its calls' tools, by appKey, as recordApp made them (lib/mcp-apps/recorded-app.ts):
   * shown where the server is not connected. A file or a link is anyone's to write, so each is
   * read with readRecordedApp, never trusted as typed.
   */
  apps?: Readonly<Record<string, unknown>>;
}

/** How a recorded call ended. "pending": the run ended first; "truncated": the value was too large to keep. */
export type RecordedOutcome =
  { kind: "value"; value: unknown } | { kind: "error"; error: string } | { kind: "truncated"; truncated: TruncatedValue } | { kind: "pending" };

/** Which call: its id in the run, the names the code used, and the server and tool they map to. */
export interface CallIdentity {
  callId: number;
  namespace: string;
  name: string;
  server: string;
  tool: string;
}

/** One call of a recorded run, assembled from its events. */
export interface RecordedCall extends CallIdentity {
  args: unknown;
  start: number;
  end?: number;
  outcome: RecordedOutcome;
  info: RecordedCallInfo;
  /** The last approval state and progress notification recorded for the call. */
  approval?: ApprovalState;
  progress?: { progress: number; total?: number; message?: string };
}

const assembled = new WeakMap<RunRecord, RecordedCall[]>();

/** The record's calls in the order the code made them (callId order); built once per record. */
export function recordedCalls(record: RunRecord): readonly RecordedCall[] {
  const cached = assembled.get(record);
  if (cached) return cached;
  const byId = new Map<number, RecordedCall>();
  const early = new Map<number, RecordedCallInfo>();
  for (const event of record.events) {
    if (event.type === "call-start") {
      const info = early.get(event.callId) ?? {};
      byId.set(event.callId, {
        callId: event.callId,
        namespace: event.namespace,
        name: event.name,
        server: info.server ?? event.namespace,
        tool: info.tool ?? event.name,
        args: event.args,
        start: event.time,
        outcome: { kind: "pending" },
        info: event.line === undefined ? info : { ...info, line: event.line },
      });
    } else if (event.type === "call-info") {
      const call = byId.get(event.callId);
      if (!call) early.set(event.callId, { ...early.get(event.callId), ...event.info });
      else {
        call.info = { ...call.info, ...event.info };
        call.server = call.info.server ?? call.server;
        call.tool = call.info.tool ?? call.tool;
      }
    } else if (event.type === "approval" || event.type === "progress") {
      const call = byId.get(event.callId);
      if (!call) continue;
      if (event.type === "approval") call.approval = event.state;
      else
        call.progress = {
          progress: event.progress,
          ...(event.total !== undefined ? { total: event.total } : {}),
          ...(event.message !== undefined ? { message: event.message } : {}),
        };
    } else if (event.type === "call-end") {
      const call = byId.get(event.callId);
      if (!call || call.outcome.kind !== "pending") continue;
      call.end = event.time;
      if (!event.ok) call.outcome = { kind: "error", error: event.error };
      else call.outcome = event.truncated ? { kind: "truncated", truncated: event.truncated } : { kind: "value", value: event.value };
    }
  }
  const calls = [...byId.values()].sort((a, b) => a.callId - b.callId);
  assembled.set(record, calls);
  return calls;
}

/** The record's start event (every valid record has exactly one, first). */
export function recordStart(record: RunRecord): RecordedStart | undefined {
  const first = record.events[0];
  return first?.type === "start" ? first : undefined;
}

/** The record's end event, or undefined while the run was still going when recorded. */
export function recordEnd(record: RunRecord): Extract<RecordedEvent, { type: "end" }> | undefined {
  for (let i = record.events.length - 1; i >= 0; i--) {
    const event = record.events[i];
    if (event?.type === "end") return event;
  }
  return undefined;
}

/** "server.tool" for people; falls back to the sanitised names. */
export function callLabel(call: Pick<RecordedCall, "server" | "tool">): string {
  return `${call.server}.${call.tool}`;
}
