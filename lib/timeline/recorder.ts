/**
 * Records one run as a RunRecord while it goes: the engine's events (calls, console lines),
 * what the host reports about each call (names, validation, size, source, approval, progress)
 * and the final result. Everything is redacted on the way in, so a record can be kept,
 * exported or shared as it is: arguments and values with redactDeep (secret keys, credential
 * values, credentials inside strings), free text (logs, errors, code) with scrubText.
 *
 * Appending is O(1) per event; `snapshot()` copies the event list, so take one when the run
 * ends (or when the person asks), not per event: the live view uses the call-records reducer.
 */
import { hashCode } from "../text/hash";
import { redactSecrets } from "../secrets/redact";
import type { LogEntry, RunEvent, RunResult, SandboxError, SandboxLimits } from "../sandbox/types";
import type { CallInfo } from "./call-records";
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, type RecordedCallInfo, type RecordedEvent, type RecordedNamespace, type RunRecord } from "./run-record";
import { redactDeep, scrubText } from "../secrets/scrub";

/** Values whose JSON is longer than this are kept as a size and a preview (a `big` result can be 2 MB). */
export const DEFAULT_MAX_VALUE_CHARS = 512 * 1024;
const PREVIEW_CHARS = 2_000;

/** What a host may report about a call: the timeline's CallInfo plus the MCP host's extras. */
export interface HostReport extends CallInfo {
  argumentWarnings?: string[];
  isError?: boolean;
  /** The raw MCP result; not recorded (the unwrapped value is, in call-end). */
  result?: unknown;
}

/** What the recorder needs to know before the run starts. */
export interface RecorderOptions {
  id: string;
  code: string;
  limits?: Partial<SandboxLimits>;
  /** Function names by namespace (lib/sandbox/host-api.ts hostApiOf(host)). */
  api?: Record<string, string[]>;
  names?: RecordedNamespace[];
  title?: string;
  replayOf?: string;
  /** The run's `data` globals, kept (redacted) in its start event. */
  data?: Record<string, unknown>;
  /** Keep the (scrubbed) code in the record; default true, so a run file can be replayed. */
  keepCode?: boolean;
  maxValueChars?: number;
  /** Milliseconds since the run started, for host-side events; defaults to performance.now() from construction. */
  now?: () => number;
  startedAt?: Date;
}

/** Builds a RunRecord from a run's events; see the file comment. */
export class RunRecorder {
  private readonly events: RecordedEvent[] = [];
  private readonly now: () => number;
  private readonly maxValueChars: number;
  private readonly startedAt: string;
  private lastTime = 0;
  private logCount = 0;
  private ended = false;

  constructor(private readonly options: RecorderOptions) {
    const origin = performance.now();
    this.now = options.now ?? (() => performance.now() - origin);
    this.maxValueChars = options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS;
    this.startedAt = (options.startedAt ?? new Date()).toISOString();
    this.events.push({
      type: "start",
      time: 0,
      codeHash: hashCode(options.code),
      ...(options.keepCode === false ? {} : { code: scrubText(options.code, { code: true }) }),
      limits: { ...options.limits },
      api: Object.fromEntries(Object.entries(options.api ?? {}).map(([ns, fns]) => [ns, [...fns]])),
      ...(options.names ? { names: options.names } : {}),
      ...(options.replayOf ? { replayOf: options.replayOf } : {}),
      ...(options.data && Object.keys(options.data).length > 0 ? { data: redactDeep(options.data) } : {}),
    });
  }

  /** Feeds one engine event (RunController / runInNode onEvent). Ignored once the run ended. */
  onEvent(event: RunEvent): void {
    if (this.ended) return;
    if (event.type === "log") return this.addLog(event.entry);
    this.lastTime = Math.max(this.lastTime, event.time);
    if (event.type === "call-start") {
      const line = "line" in event && typeof event.line === "number" ? { line: event.line } : {};
      const args = event.args === undefined ? {} : { args: redactDeep(event.args) };
      this.push({ type: "call-start", time: event.time, callId: event.callId, namespace: event.namespace, name: event.name, ...args, ...line });
    } else if (event.ok) {
      this.push({ type: "call-end", time: event.time, callId: event.callId, ok: true, ...this.keepValue(event.value) });
    } else {
      this.push({ type: "call-end", time: event.time, callId: event.callId, ok: false, error: scrubText(redactSecrets(event.error)) });
    }
  }

  /** Feeds a host report; approval and progress become their own events. Late reports still count. */
  onCallInfo(callId: number, report: HostReport): void {
    const time = this.hostTime();
    const { approval, progress } = report;
    if (approval !== undefined) this.push({ type: "approval", time, callId, state: approval });
    if (progress !== undefined) this.onProgress(callId, progress);
    const info = recordedInfo(report);
    if (Object.keys(info).length > 0) this.push({ type: "call-info", time, callId, info });
  }

  /** Feeds an MCP progress notification of a call. */
  onProgress(callId: number, progress: { progress: number; total?: number; message?: string }): void {
    const { total, message } = progress;
    this.push({
      type: "progress",
      time: this.hostTime(),
      callId,
      progress: progress.progress,
      ...(total !== undefined ? { total } : {}),
      ...(message !== undefined ? { message: scrubText(message) } : {}),
    });
  }

  /** Records the run's end and returns the finished record. Calling it twice returns the same log. */
  finish(result: RunResult): RunRecord {
    if (this.ended) return this.snapshot();
    // Console lines normally stream as events; a transport that dropped them still has them here.
    if (this.logCount === 0) for (const entry of result.logs) this.addLog(entry);
    const time = Math.max(this.lastTime, result.stats.wallMs);
    const stats = { ...result.stats };
    this.push(
      result.ok
        ? { type: "end", time, ok: true, value: redactDeep(result.value), stats }
        : { type: "end", time, ok: false, error: scrubError(result.error), stats },
    );
    this.ended = true;
    return this.snapshot();
  }

  /** The record so far (a copy of the event list). */
  snapshot(): RunRecord {
    const { id, title } = this.options;
    return { format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, id, ...(title ? { title } : {}), startedAt: this.startedAt, events: this.events.slice() };
  }

  private push(event: RecordedEvent): void {
    this.events.push(event);
  }

  private addLog(entry: LogEntry): void {
    this.logCount++;
    this.lastTime = Math.max(this.lastTime, entry.time);
    this.push({ type: "log", time: entry.time, level: entry.level, text: scrubText(entry.text) });
  }

  /** Host events are timed on the main thread; never earlier than the last engine event seen. */
  private hostTime(): number {
    return Math.max(this.lastTime, this.now());
  }

  private keepValue(value: unknown): { value?: unknown; truncated?: { chars: number; preview: string } } {
    const redacted = redactDeep(value);
    if (redacted === undefined) return {};
    let json: string | undefined;
    try {
      json = JSON.stringify(redacted);
    } catch {
      json = undefined;
    }
    if (json === undefined) return { truncated: { chars: 0, preview: "[a value that is not JSON]" } };
    if (json.length <= this.maxValueChars) return { value: redacted };
    return { truncated: { chars: json.length, preview: json.slice(0, PREVIEW_CHARS) } };
  }
}

function recordedInfo(report: HostReport): RecordedCallInfo {
  const info: RecordedCallInfo = {};
  if (report.server !== undefined) info.server = report.server;
  if (report.tool !== undefined) info.tool = report.tool;
  if (report.validation !== undefined) info.validation = scrubText(report.validation);
  if (report.argumentWarnings !== undefined) info.argumentWarnings = [...report.argumentWarnings];
  if (report.outputFindings !== undefined) info.outputFindings = report.outputFindings.map(({ path, message }) => ({ path, message }));
  if (report.resultBytes !== undefined) info.resultBytes = report.resultBytes;
  if (report.isError !== undefined) info.isError = report.isError;
  if (report.source !== undefined) info.source = report.source;
  if (report.line !== undefined) info.line = report.line;
  if (report.parent !== undefined) info.parent = report.parent;
  if (report.capWait !== undefined) info.capWait = { ...report.capWait };
  if (report.task !== undefined) info.task = { ...report.task, taskId: scrubText(report.task.taskId), messages: report.task.messages.map((m) => scrubText(m)) };
  if (report.serverRequests !== undefined)
    info.serverRequests = report.serverRequests.map(({ kind, message, state, round }) => ({
      kind,
      message: scrubText(message),
      state,
      ...(round === undefined ? {} : { round }),
    }));
  return info;
}

function scrubError(error: SandboxError): SandboxError {
  const scrubbed: SandboxError = { ...error, message: scrubText(error.message) };
  if (error.stack !== undefined) scrubbed.stack = scrubText(error.stack);
  return scrubbed;
}
