import { createEngine, type ModuleLoader, type SandboxEngine } from "./engine";
import { serializeError } from "./errors";
import type { CallHost } from "./call-scheduler";
import { ALIVE_INTERVAL_MS } from "./alive";
import { Batcher } from "./batcher";
import type { CallBatchMessage, CallMessage, CallResultMessage, EventMessage, MainToWorker, WorkerToMain } from "./protocol";
import type { RunResult } from "./types";
import { messageOf } from "../text/error-message";

/** The part of a worker scope (or a MessagePort) the sandbox needs; tests use an in-memory pair. */
export interface PortLike {
  postMessage(message: WorkerToMain): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

/** A call sent to the main thread and not answered yet. */
interface WaitingCall {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  suspendClock: () => () => void;
  /** Set while the main thread has the call's clock suspended. */
  resume: (() => void) | undefined;
}

interface CurrentRun {
  runId: string;
  abort: AbortController;
  calls: Map<number, WaitingCall>;
}

/** Loads the WASM module; given the compiled module `init` brought, from that. */
export type WorkerModuleLoader = (compiled: WebAssembly.Module | undefined) => ReturnType<ModuleLoader>;

/** How a worker starts. */
export interface AttachOptions {
  /**
   * Wait for the page's `init` message and the compiled module it carries before loading; every
   * message before it is refused. Without it the worker loads at once.
   */
  awaitInit?: boolean;
}

/**
 * Serves the protocol on `port`: one run at a time, tool calls forwarded to the main thread.
 * Loads the WASM module (at once, or on `init` with `awaitInit`) and says `ready`; on `warm` it
 * makes its warm-up run, and a run sent meanwhile starts when that ends. Messages with
 * an unknown or mismatched runId or callId, a second `run` while one is going, a second `init`,
 * or malformed data are answered with `refused` and otherwise ignored.
 */
export function attachSandboxWorker(port: PortLike, loadModule: WorkerModuleLoader, options: AttachOptions = {}): void {
  let compiled: WebAssembly.Module | undefined;
  let preloaded: ReturnType<ModuleLoader> | undefined;
  // The first run takes the preloaded module; a reload (after a poisoned run) loads afresh, from the same compiled module.
  const engine = createEngine(() => {
    const module = preloaded ?? loadModule(compiled);
    preloaded = undefined;
    return module;
  });
  let current: CurrentRun | undefined;
  // Call traffic is queued and batched per turn; everything else goes at once, in order.
  const out = new Batcher<WorkerToMain, CallMessage | EventMessage, CallBatchMessage>(
    (message) => port.postMessage(message),
    (runId, messages) => ({ type: "batch", runId, messages }),
  );
  let started = false;
  // The warm-up run while it goes: runs wait for it (the engine makes one run at a time). A
  // worker warms once, and not after a real run has warmed it.
  let warming: Promise<void> | undefined;
  let warmed = false;
  const preload = () => {
    started = true;
    const loading = loadModule(compiled);
    preloaded = loading;
    loading.then(
      () => out.send({ type: "ready", runId: null }),
      (error: unknown) => out.send({ type: "ready", runId: null, error: serializeError(error).message }),
    );
  };
  if (!options.awaitInit) preload();

  const refuse = (runId: string | null, reason: string, callId?: number) =>
    out.send(callId === undefined ? { type: "refused", runId, reason } : { type: "refused", runId, callId, reason });

  port.addEventListener("message", (event) => {
    const message = asMessage(event.data);
    if (!message) refuse(null, "malformed message");
    else if (message.type === "init") {
      if (started || !options.awaitInit) refuse(null, "init: the worker has started already");
      else {
        compiled = message.module;
        preload();
      }
    } else if (!started) refuse(message.runId, `${message.type}: the worker waits for init`);
    else if (message.type === "warm") {
      if (warmed || current) return;
      warmed = true;
      warming = warmUp(engine).finally(() => (warming = undefined));
    } else if (message.type === "batch") message.messages.forEach(handle);
    else handle(message);
  });

  function handle(message: Exclude<MainToWorker, { type: "batch" | "init" | "warm" }>): void {
    if (message.type === "run") {
      if (current) refuse(message.runId, `busy: run ${current.runId} is in progress`);
      else current = start(message.runId, message.request, message.hostApi);
      return;
    }
    if (!current || current.runId !== message.runId) {
      refuse(message.runId, `unknown runId ${message.runId}`, message.type === "cancel" ? undefined : message.callId);
      return;
    }
    if (message.type === "cancel") {
      current.abort.abort();
      return;
    }
    const waiting = current.calls.get(message.callId);
    if (!waiting) {
      refuse(message.runId, `unknown callId ${message.callId}`, message.callId);
      return;
    }
    if (message.type === "clock") {
      // The main thread sends only the first pause and the last resume; repeats change nothing.
      if (message.paused) waiting.resume ??= waiting.suspendClock();
      else {
        waiting.resume?.();
        waiting.resume = undefined;
      }
      return;
    }
    current.calls.delete(message.callId);
    if (!message.ok) waiting.reject(new Error(message.error));
    else if (message.valueJson === "") waiting.resolve(undefined);
    else {
      try {
        waiting.resolve(JSON.parse(message.valueJson));
      } catch {
        waiting.reject(new Error("the host answered with invalid JSON"));
      }
    }
  }

  function start(runId: string, request: Extract<MainToWorker, { type: "run" }>["request"], hostApi: Record<string, string[]>): CurrentRun {
    const run: CurrentRun = { runId, abort: new AbortController(), calls: new Map() };
    warmed = true;
    // Fires only while the guest yields; the controller reads silence as a guest that does not.
    const alive = setInterval(() => out.send({ type: "alive", runId }), ALIVE_INTERVAL_MS);
    const callHost: CallHost = (namespace, name, args, signal, callId, suspendClock) =>
      new Promise((resolve, reject) => {
        run.calls.set(callId, { resolve, reject, suspendClock, resume: undefined });
        signal.addEventListener(
          "abort",
          () => {
            // Not waiting any more means the main thread answered (with an error): nothing to abort there.
            if (!run.calls.delete(callId)) return;
            out.send({ type: "call-abort", runId, callId, reason: reasonOf(signal) });
            reject(new Error("aborted"));
          },
          { once: true },
        );
        out.queue({ type: "call", runId, callId, namespace, name, argsJson: JSON.stringify(args) ?? "" });
      });
    (warming ?? Promise.resolve())
      .then(() =>
        engine.run(request, callHost, {
          hostApi,
          signal: run.abort.signal,
          // Logs go at once, so a guest that then spins still shows what it printed before.
          onEvent: (event) => {
            if (event.type === "log") out.send({ type: "event", runId, event });
            else out.queue({ type: "event", runId, event });
          },
        }),
      )
      .catch((error: unknown): RunResult => ({
        ok: false,
        error: serializeError(error),
        logs: [],
        stats: { wallMs: 0, hostCalls: 0, peakInFlight: 0 },
      }))
      .then((result) => {
        clearInterval(alive);
        current = undefined;
        out.send({ type: "done", runId, result });
      })
      .catch(() => undefined);
    return run;
  }
}

/**
 * The run a worker makes on `warm`, answered inside the worker: the first run of a
 * fresh worker ran its call path cold (the worker's JavaScript not yet compiled, QuickJS's WASM
 * functions compiled on first call), and a page's first tool calls took 50 to 135 ms where later
 * ones take 10 (docs/speed.md, "The live path"). Nothing of it reaches the main thread.
 */
const WARM_UP = {
  code: 'const xs = [];\nfor (let i = 0; i < 3; i++) xs.push(warm.up({ i }));\nawait Promise.all(xs);\nconsole.log("warm", { up: 1 });\nreturn { ok: await warm.up({}) };',
  hostApi: { warm: ["up"] },
};

async function warmUp(engine: SandboxEngine): Promise<void> {
  // A failure here is the real first run's to report.
  await engine.run({ code: WARM_UP.code }, () => Promise.resolve({ up: true }), { hostApi: WARM_UP.hostApi }).catch(() => undefined);
}

/** Narrows untrusted message data to the protocol, or undefined. */
function asMessage(data: unknown): MainToWorker | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.type === "init") return m.runId === null && m.module instanceof WebAssembly.Module ? { type: "init", runId: null, module: m.module } : undefined;
  if (m.type === "warm") return m.runId === null ? { type: "warm", runId: null } : undefined;
  if (typeof m.runId !== "string") return undefined;
  switch (m.type) {
    case "run":
      return typeof m.request === "object" && m.request !== null && typeof (m.request as { code?: unknown }).code === "string" && isApi(m.hostApi)
        ? (m as unknown as MainToWorker)
        : undefined;
    case "cancel":
      return m as unknown as MainToWorker;
    case "clock":
      return Number.isInteger(m.callId) && typeof m.paused === "boolean" ? (m as unknown as MainToWorker) : undefined;
    case "call-result":
      return Number.isInteger(m.callId) && (m.ok === true ? typeof m.valueJson === "string" : m.ok === false && typeof m.error === "string")
        ? (m as unknown as MainToWorker)
        : undefined;
    case "batch":
      return Array.isArray(m.messages) && m.messages.every((inner) => asMessage(inner)?.type === "call-result")
        ? { type: "batch", runId: m.runId, messages: m.messages as CallResultMessage[] }
        : undefined;
    default:
      return undefined;
  }
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return messageOf(reason);
}

function isApi(value: unknown): value is Record<string, string[]> {
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).every((names) => Array.isArray(names) && names.every((n) => typeof n === "string"));
}
