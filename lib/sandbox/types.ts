/**
 * The sandbox's public contract: limits, results, error kinds and run events.
 * Shared by the engine (Node and worker), the run controller and the UI.
 * Types only: nothing here runs.
 */

/** Per-run limits. Every field is configurable per run; see DEFAULT_LIMITS. */
export interface SandboxLimits {
  /** QuickJS heap limit in bytes. */
  memoryBytes: number;
  /** QuickJS stack limit in bytes. */
  stackBytes: number;
  /** CPU time spent running guest code, enforced by the interrupt handler. */
  cpuMs: number;
  /** Wall clock for the whole run, including time spent awaiting host calls. */
  wallMs: number;
  /** Timeout for one host call. */
  callTimeoutMs: number;
  /** Host calls in flight at once; the rest queue. */
  maxConcurrency: number;
  /** Host calls per run. */
  maxCalls: number;
  /** Size of the returned value as JSON, in bytes (UTF-8). */
  resultBytes: number;
  /** Total size of captured console text, in bytes. */
  logBytes: number;
}

/** Which limit a `limit` error hit. */
export type LimitName = "maxCalls" | "resultBytes" | "logBytes";

/** Every way a run can fail. Part of the contract: each kind is tested. */
export type ErrorKind =
  | "syntax"
  | "runtime"
  | "timeout"
  | "memory"
  | "stack"
  | "tool"
  | "limit"
  | "cancelled"
  | "serialization"
  /** The sandbox could not take the run: still starting, or another run is on. Nothing ran. */
  | "busy";

/** A failed run's error, as plain data (it crosses postMessage). */
export interface SandboxError {
  kind: ErrorKind;
  message: string;
  /** 1-based line in the code as the person wrote it (syntax, runtime). */
  line?: number;
  /** 1-based column (syntax). */
  column?: number;
  /** Guest stack (runtime). */
  stack?: string;
  /** The host call that failed (tool). */
  call?: { callId: number; namespace: string; name: string };
  /** The limit that was hit (limit). */
  limit?: LimitName;
  /** Which clock ran out (timeout). */
  clock?: "cpu" | "wall" | "call";
}

export type LogLevel = "log" | "info" | "warn" | "error" | "debug";

/** One console line. `time` is milliseconds since the run started. */
export interface LogEntry {
  level: LogLevel;
  text: string;
  time: number;
}

export interface RunStats {
  wallMs: number;
  hostCalls: number;
  peakInFlight: number;
}

/** The outcome of every run: a JSON-safe value, or a typed error. */
export type RunResult = { ok: true; value: unknown; logs: LogEntry[]; stats: RunStats } | { ok: false; error: SandboxError; logs: LogEntry[]; stats: RunStats };

/**
 * Events a run emits while it goes. `time` is milliseconds since the run started,
 * measured where the engine runs (worker or Node), so start/end pairs are comparable.
 */
export type RunEvent =
  | {
      type: "call-start";
      callId: number;
      namespace: string;
      name: string;
      args: unknown;
      time: number;
      /** 1-based line, in the code as the person wrote it, of the statement that made the call. */
      line?: number;
    }
  | { type: "call-end"; callId: number; time: number; ok: true; value: unknown }
  | { type: "call-end"; callId: number; time: number; ok: false; error: string }
  | { type: "log"; entry: LogEntry };

/** Which guest call a host function is serving; the same callId appears in the call's RunEvents. */
export interface HostCallInfo {
  callId: number;
  /**
   * Pauses the run's wall-clock deadline and this call's timeout until the returned resume
   * function is called: time a person spends deciding (an approval) is not the code's time.
   * Reference-counted across calls; each resume works once; a call that ends resumes its own
   * pauses. Event times still show the real wait. Absent where no clock runs (replays, mocks).
   */
  suspendClock?: () => () => void;
}

/**
 * A host function the guest may call as `await namespace.name(args)`. `call` lets the host tie
 * what it learns (validation findings, raw results) to the call's timeline row.
 */
export type HostFunction = (args: unknown, signal: AbortSignal, call: HostCallInfo) => Promise<unknown>;

/** Host functions by namespace, then by name. */
export type HostFunctions = Record<string, Record<string, HostFunction>>;

/** What a run is asked to do. */
export interface RunRequest {
  code: string;
  /** Keys become read-only globals in the guest. Must be JSON-safe. */
  data?: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
}
