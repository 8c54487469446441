import { errorResult, SandboxConfigError, sandboxError } from "./errors";
import { hostApiOf } from "./host-api";
import { resolveLimits } from "./limits";
import { ALIVE_INTERVAL_MS } from "./alive";
import { Batcher } from "./batcher";
import { MainCalls } from "./main-calls";
import { PauseCount } from "./pause-count";
import type { CallResultMessage, MainToWorker, ResultBatchMessage, WorkerToMain } from "./protocol";
import type { HostFunctions, LogEntry, RunEvent, RunRequest, RunResult, SandboxError } from "./types";

/** The part of a Worker the controller uses (a DOM Worker fits; tests pass fakes). */
export interface WorkerLike {
  postMessage(message: MainToWorker): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
  terminate(): void;
}

export interface RunControllerOptions {
  createWorker: () => WorkerLike;
  /**
   * When a worker that said `ready` makes its warm-up run (`warm`): at once unless given. The
   * page passes its idle callback, so the warm-up does not compete with its own start.
   */
  whenIdle?: (warm: () => void) => void;
  /** How long a run may outlive its cancel or its wall deadline before the worker is terminated. */
  hardStopGraceMs?: number;
}

/** How a run is queued. */
export interface RunOptions {
  /** Holds the run (and the queue behind it) until this settles. */
  after?: Promise<unknown>;
}

/** A started (or queued) run. */
export interface RunHandle {
  runId: string;
  result: Promise<RunResult>;
  cancel: () => void;
}

interface Run {
  runId: string;
  /** Not to be sent to the worker yet (RunOptions.after): the queue waits behind it. */
  held: boolean;
  request: RunRequest;
  host: HostFunctions;
  onEvent: ((event: RunEvent) => void) | undefined;
  wallMs: number;
  cpuMs: number;
  resolve: (result: RunResult) => void;
  // Filled in once the run is in the worker:
  startedAt?: number;
  /** When the hard stop for the wall clock falls due (performance.now()); moves on while paused. */
  deadline: number;
  /** The hard-stop timer: the wall deadline's, or after cancel() the grace period's. */
  timer?: ReturnType<typeof setTimeout>;
  cancelling: boolean;
  watchdog?: ReturnType<typeof setInterval>;
  lastHeard: number;
  calls: MainCalls;
  /** Held while any call has its clock suspended; the wall deadline waits meanwhile. */
  pauses: PauseCount;
  logs: LogEntry[];
  hostCalls: number;
  inFlight: number;
  peakInFlight: number;
}

interface WorkerSlot {
  worker: WorkerLike;
  ready: Promise<void>;
}

/**
 * Main-thread side of the sandbox: owns one worker, runs one request at a time (later runs
 * queue, FIFO, and their wall clock starts when they start), answers the guest's tool calls
 * with the host functions, and forwards events. A run that is still going 1 s after cancel or
 * after its wall deadline is ended the only sure way, by terminating the worker (a guest in
 * `while (true) {}` never reads messages); the next run gets a fresh worker. While a host
 * function has its call's clock suspended (a person deciding), that deadline moves back with
 * the worker's wall clock, which the `clock` messages suspend too.
 *
 * A watchdog backs up the CPU limit: QuickJS polls its interrupt handler only every ~10 000
 * backward jumps, so a loop whose every turn is a long builtin (`s.split("")` on a big string)
 * can run far past its CPU budget. The worker says `alive` while its event loop turns; silence
 * longer than cpuMs + the grace can only be guest code running without a break, so the worker
 * is terminated and the run ends as a CPU timeout.
 */
export class RunController {
  private slot: WorkerSlot | undefined;
  private readonly queue: Run[] = [];
  private current: Run | undefined;
  private nextId = 1;
  private disposed = false;
  private readonly prefix = Math.random().toString(36).slice(2, 8);
  private readonly graceMs: number;
  private readonly out = new Batcher<MainToWorker, CallResultMessage, ResultBatchMessage>(
    (message) => this.slot?.worker.postMessage(message),
    (runId, messages) => ({ type: "batch", runId, messages }),
  );

  constructor(private readonly options: RunControllerOptions) {
    this.graceMs = options.hardStopGraceMs ?? 1_000;
  }

  /** Starts the worker and resolves once its WASM module is loaded. */
  warmUp(): Promise<void> {
    if (this.disposed) return Promise.reject(new SandboxConfigError("The run controller is disposed"));
    return this.ensureWorker().ready;
  }

  /**
   * Queues a run; throws SandboxConfigError at once for invalid limits or after dispose().
   * `options.after`: the run reaches the worker only once this settles (the page renders the
   * run's start first, so that render does not sit inside the first tool call's time).
   */
  run(request: RunRequest, host: HostFunctions = {}, onEvent?: (event: RunEvent) => void, options: RunOptions = {}): RunHandle {
    if (this.disposed) throw new SandboxConfigError("The run controller is disposed");
    const { wallMs, cpuMs } = resolveLimits(request.limits);
    const runId = `run-${this.prefix}-${this.nextId++}`;
    let resolve!: (result: RunResult) => void;
    const result = new Promise<RunResult>((r) => (resolve = r));
    let pausedAt = 0;
    const run: Run = {
      runId,
      held: options.after !== undefined,
      request,
      host,
      onEvent,
      wallMs,
      cpuMs,
      resolve,
      deadline: Infinity,
      cancelling: false,
      lastHeard: 0,
      calls: new MainCalls({
        runId,
        host,
        answer: (message) => this.out.queue(message),
        clock: (message) => this.out.send(message),
        suspendRun: () => run.pauses.hold(),
      }),
      pauses: new PauseCount(
        () => {
          pausedAt = performance.now();
          if (!run.cancelling) clearTimeout(run.timer);
        },
        () => {
          run.deadline += performance.now() - pausedAt;
          if (!run.cancelling && this.current === run) this.armDeadline(run);
        },
      ),
      logs: [],
      hostCalls: 0,
      inFlight: 0,
      peakInFlight: 0,
    };
    this.queue.push(run);
    const release = () => {
      run.held = false;
      this.pump();
    };
    if (options.after) void options.after.then(release, release);
    else this.pump();
    return { runId, result, cancel: () => this.cancel(run) };
  }

  /** Terminates the worker; queued and running runs end as `cancelled`. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const run of this.queue.splice(0)) this.settle(run, this.stopped(run, cancelledError()));
    if (this.current) this.settle(this.current, this.stopped(this.current, cancelledError()));
    this.slot?.worker.terminate();
    this.slot = undefined;
  }

  private cancel(run: Run): void {
    const queued = this.queue.indexOf(run);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.settle(run, this.stopped(run, cancelledError()));
      return;
    }
    if (this.current !== run || !this.slot) return;
    this.out.send({ type: "cancel", runId: run.runId });
    run.cancelling = true;
    clearTimeout(run.timer);
    run.timer = setTimeout(() => this.hardStop(run, cancelledError()), this.graceMs);
  }

  private pump(): void {
    if (this.current || this.disposed || this.queue[0]?.held !== false) return;
    const run = this.queue.shift();
    if (!run) return;
    this.current = run;
    run.startedAt = performance.now();
    run.deadline = run.startedAt + run.wallMs + this.graceMs;
    this.armDeadline(run);
    const slot = this.ensureWorker();
    this.out.send({ type: "run", runId: run.runId, request: run.request, hostApi: hostApiOf(run.host) });
    // The watchdog starts once the worker has its module: loading it is not the guest's time.
    slot.ready.then(
      () => this.watch(run),
      () => undefined,
    );
  }

  /** (Re)arms the hard stop at the run's wall deadline, which suspended clocks push back. */
  private armDeadline(run: Run): void {
    clearTimeout(run.timer);
    const wall = sandboxError("timeout", `The run took longer than the ${run.wallMs} ms wall-clock limit`, { clock: "wall" });
    run.timer = setTimeout(() => this.hardStop(run, wall), Math.max(0, run.deadline - performance.now()));
  }

  private watch(run: Run): void {
    if (this.current !== run) return;
    const cpu = sandboxError("timeout", `The code used more than ${run.cpuMs} ms of CPU time (the sandbox stopped responding)`, { clock: "cpu" });
    run.lastHeard = performance.now();
    let lastCheck = run.lastHeard;
    run.watchdog = setInterval(() => {
      const now = performance.now();
      // This thread was busy itself: the worker's messages may be queued unread, so start over.
      if (now - lastCheck > 4 * ALIVE_INTERVAL_MS) run.lastHeard = now;
      lastCheck = now;
      if (now - run.lastHeard > run.cpuMs + this.graceMs) this.hardStop(run, cpu);
    }, ALIVE_INTERVAL_MS);
  }

  private ensureWorker(): WorkerSlot {
    if (this.slot) return this.slot;
    const worker = this.options.createWorker();
    let markReady!: () => void;
    let markFailed!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    ready.catch(() => undefined);
    const slot: WorkerSlot = { worker, ready };
    worker.addEventListener("message", (event) => {
      if (this.slot !== slot) return;
      const message = event.data as WorkerToMain;
      if (message.type === "ready") {
        if (message.error !== undefined) markFailed(new Error(message.error));
        else {
          markReady();
          const warm: MainToWorker = { type: "warm", runId: null };
          (this.options.whenIdle ?? ((f: () => void) => f()))(() => this.slot === slot && slot.worker.postMessage(warm));
        }
      } else if (message.type === "batch") message.messages.forEach((inner) => this.onMessage(inner));
      else this.onMessage(message);
    });
    worker.addEventListener("error", (event) => {
      if (this.slot !== slot) return;
      const error = new Error(`The sandbox worker failed: ${event.message || "unknown error"}`);
      markFailed(error);
      this.replaceWorker();
      if (this.current) this.settle(this.current, this.stopped(this.current, sandboxError("runtime", error.message)));
    });
    this.slot = slot;
    return slot;
  }

  private onMessage(message: Exclude<WorkerToMain, { type: "ready" | "batch" }>): void {
    const run = this.current;
    if (!run || message.runId !== run.runId) return;
    run.lastHeard = performance.now();
    if (message.type === "event") {
      this.track(run, message.event);
      try {
        run.onEvent?.(message.event);
      } catch {
        // A listener's bug must not stop the run's bookkeeping.
      }
    } else if (message.type === "call") run.calls.answer(message);
    else if (message.type === "call-abort") run.calls.abort(message.callId, message.reason);
    else if (message.type === "done") this.settle(run, message.result);
    else if (message.type === "refused" && message.callId === undefined) {
      // Only the run message itself can be refused without a callId (a late answer has one).
      this.settle(run, this.stopped(run, sandboxError("runtime", `The sandbox worker refused the run: ${message.reason}`)));
    }
  }

  private track(run: Run, event: RunEvent): void {
    if (event.type === "log") run.logs.push(event.entry);
    else if (event.type === "call-start") {
      run.hostCalls++;
      run.peakInFlight = Math.max(run.peakInFlight, ++run.inFlight);
    } else run.inFlight--;
  }

  private hardStop(run: Run, error: SandboxError): void {
    if (this.current !== run) return;
    this.replaceWorker();
    this.settle(run, this.stopped(run, error));
  }

  private replaceWorker(): void {
    this.slot?.worker.terminate();
    this.slot = undefined;
  }

  /** A result for a run the worker could not report on (terminated, failed, cancelled early). */
  private stopped(run: Run, error: SandboxError): RunResult {
    const wallMs = run.startedAt === undefined ? 0 : performance.now() - run.startedAt;
    return errorResult(error, run.logs, { wallMs, hostCalls: run.hostCalls, peakInFlight: run.peakInFlight });
  }

  private settle(run: Run, result: RunResult): void {
    clearTimeout(run.timer);
    clearInterval(run.watchdog);
    run.calls.abortAll();
    if (this.current === run) this.current = undefined;
    run.resolve(result);
    this.pump();
  }
}

function cancelledError(): SandboxError {
  return sandboxError("cancelled", "The run was cancelled");
}
