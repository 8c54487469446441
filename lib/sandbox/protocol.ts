/**
 * The main thread ↔ sandbox worker protocol. Types only.
 *
 * Every message carries a runId (`init`, `ready` and `wasm` carry null: they belong to no run).
 * Payloads that came from or go to guest code cross as JSON strings, so nothing but plain data
 * (and the page's compiled QuickJS module, in `init`) ever reaches the worker. The worker refuses (and reports with `refused`) any message whose runId is not
 * the current run's, or whose callId is not a call that run is waiting for.
 *
 * Tool-call traffic travels in `batch` messages when several pieces are ready in the same turn:
 * a Promise.all of thousands of calls would otherwise cost four postMessages per call (call,
 * call-start, call-result, call-end). Order is kept; each message inside is checked on its own.
 */
import type { RunEvent, RunRequest, RunResult } from "./types";

/** main → worker: start a run. The worker runs one at a time. */
export interface RunMessage {
  type: "run";
  runId: string;
  request: RunRequest;
  /** Tool names by namespace; the functions themselves stay on the main thread. */
  hostApi: Record<string, string[]>;
}

/** main → worker: cancel the run (ends as `cancelled` once the guest yields). */
export interface CancelMessage {
  type: "cancel";
  runId: string;
}

/** main → worker: the answer to a `call`. `valueJson` is "" when the host returned undefined. */
export type CallResultMessage =
  | { type: "call-result"; runId: string; callId: number; ok: true; valueJson: string }
  | { type: "call-result"; runId: string; callId: number; ok: false; error: string };

/** main → worker: call-results of one run, sent together, in order. */
export interface ResultBatchMessage {
  type: "batch";
  runId: string;
  messages: CallResultMessage[];
}

/**
 * main → worker: a call's host function suspended (`paused: true`) or resumed the clocks (see
 * HostCallInfo.suspendClock). The host function runs here, the clocks there. The main thread
 * counts the suspensions and sends only the first pause and the last resume of a call; a call
 * that ends resumes by itself, so its last resume is never needed.
 */
export interface ClockMessage {
  type: "clock";
  runId: string;
  callId: number;
  paused: boolean;
}

/**
 * main → worker, first of all, to a worker started to wait for it (see `WorkerBoot` in
 * compiled-module.ts): the QuickJS module an earlier worker of the page compiled. The worker
 * instantiates it instead of fetching and compiling the .wasm; V8 shares a module's compiled code
 * between the workers it is posted to.
 */
export interface InitMessage {
  type: "init";
  runId: null;
  module: WebAssembly.Module;
}

/**
 * main → worker, after `ready`: make the warm-up run now (its call path compiled, so a first
 * program's tool calls are not cold). The page sends it when its main thread is idle, so the
 * warm-up does not take a core from the page's own start; a run sent first makes it moot.
 */
export interface WarmMessage {
  type: "warm";
  runId: null;
}

export type MainToWorker = InitMessage | WarmMessage | RunMessage | CancelMessage | CallResultMessage | ResultBatchMessage | ClockMessage;

/** worker → main: the WASM module is loaded (or failed to load: `error`). */
export interface ReadyMessage {
  type: "ready";
  runId: null;
  error?: string;
}

/** worker → main: the QuickJS module this worker compiled (the page had none to give), for the page's next workers. */
export interface WasmModuleMessage {
  type: "wasm";
  runId: null;
  module: WebAssembly.Module;
}

/** worker → main: a run event (call-start, call-end, log). */
export interface EventMessage {
  type: "event";
  runId: string;
  event: RunEvent;
}

/** worker → main: the guest called a tool; answer with `call-result`. */
export interface CallMessage {
  type: "call";
  runId: string;
  callId: number;
  namespace: string;
  name: string;
  argsJson: string;
}

/**
 * worker → main: the worker gave up on a call it had sent (per-call timeout, or the run ended
 * while it was in flight): abort the host function's signal; any answer will be refused. Sent
 * at once, not batched: there are at most maxConcurrency of them at a time.
 */
export interface CallAbortMessage {
  type: "call-abort";
  runId: string;
  callId: number;
  reason: string;
}

/**
 * worker → main: sent every ALIVE_INTERVAL_MS (alive.ts) while a run is on, from the worker's
 * event loop. Silence means the guest is running without yielding; see the controller's watchdog.
 */
export interface AliveMessage {
  type: "alive";
  runId: string;
}

/** worker → main: the run ended. */
export interface DoneMessage {
  type: "done";
  runId: string;
  result: RunResult;
}

/** worker → main: a message was refused (unknown or mismatched runId/callId, busy, malformed). */
export interface RefusedMessage {
  type: "refused";
  runId: string | null;
  callId?: number;
  reason: string;
}

/** worker → main: calls and call events of one run, sent together, in order. */
export interface CallBatchMessage {
  type: "batch";
  runId: string;
  messages: Array<CallMessage | EventMessage>;
}

export type WorkerToMain =
  ReadyMessage | WasmModuleMessage | EventMessage | CallMessage | CallAbortMessage | CallBatchMessage | AliveMessage | DoneMessage | RefusedMessage;
