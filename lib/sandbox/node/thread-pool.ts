/**
 * Runs programs on a pool of sandbox worker threads: one run controller (one thread, one run at
 * a time, a fresh QuickJS context per run) per slot, `size` slots, a bounded FIFO queue in front
 * of them, and a clear `busy` result when the queue is full. Every limit of the playground
 * applies, because each slot is the playground's own RunController (wall and CPU clocks, the
 * watchdog that terminates a thread spinning in a builtin, per-call timeouts).
 * The code-mode MCP server runs its callers' programs here (docs/ARCHITECTURE.md, "The code-mode
 * MCP server").
 */
import { RunController, type WorkerLike } from "../run-controller";
import { sandboxError } from "../errors";
import type { HostFunctions, RunEvent, RunRequest, RunResult } from "../types";
import { threadWorker } from "./thread-worker";

export interface ThreadPoolOptions {
  /** Runs at once (threads). */
  size: number;
  /** Runs waiting for a thread before new ones are refused as busy. */
  queueLimit: number;
  /** Makes a worker; default a real worker thread. */
  createWorker?: () => WorkerLike;
}

/** One run for the pool. */
export interface PoolRun {
  request: RunRequest;
  host: HostFunctions;
  onEvent?: (event: RunEvent) => void;
  /** Cancels the run (queued: it never starts). */
  signal?: AbortSignal;
}

export interface ThreadPoolStats {
  running: number;
  queued: number;
  size: number;
  queueLimit: number;
}

export interface ThreadPool {
  /** Runs a program; resolves with its result, or at once with a `busy` error when the queue is full. */
  run(run: PoolRun): Promise<RunResult>;
  stats(): ThreadPoolStats;
  /** Starts every thread and waits for their QuickJS modules. */
  warmUp(): Promise<void>;
  close(): void;
}

interface Waiting {
  run: PoolRun;
  resolve: (result: RunResult) => void;
}

const noStats = { wallMs: 0, hostCalls: 0, peakInFlight: 0 };

/** Creates the pool; threads start on first use (or warmUp). */
export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const size = Math.max(1, Math.floor(options.size));
  const queueLimit = Math.max(0, Math.floor(options.queueLimit));
  const createWorker = options.createWorker ?? threadWorker;
  const idle: RunController[] = Array.from({ length: size }, () => new RunController({ createWorker }));
  const all = [...idle];
  const queue: Waiting[] = [];
  let running = 0;
  let closed = false;

  const cancelledResult = (): RunResult => ({
    ok: false,
    error: sandboxError("cancelled", "The run was cancelled before it started"),
    logs: [],
    stats: noStats,
  });

  const start = (controller: RunController, waiting: Waiting) => {
    const { run, resolve } = waiting;
    running += 1;
    const handle = controller.run(run.request, run.host, run.onEvent);
    const onAbort = () => handle.cancel();
    run.signal?.addEventListener("abort", onAbort, { once: true });
    void handle.result.then((result) => {
      run.signal?.removeEventListener("abort", onAbort);
      running -= 1;
      resolve(result);
      const next = queue.shift();
      if (next && !closed) start(controller, next);
      else idle.push(controller);
    });
  };

  return {
    run(run) {
      if (closed) return Promise.resolve({ ok: false, error: sandboxError("busy", "The sandbox pool is closed"), logs: [], stats: noStats });
      if (run.signal?.aborted) return Promise.resolve(cancelledResult());
      return new Promise<RunResult>((resolve) => {
        const waiting: Waiting = { run, resolve };
        const controller = idle.pop();
        if (controller) return start(controller, waiting);
        if (queue.length >= queueLimit) {
          const message = `Busy: ${size} ${size === 1 ? "program is" : "programs are"} running and ${queue.length} waiting (the limit); try again shortly`;
          return resolve({ ok: false, error: sandboxError("busy", message), logs: [], stats: noStats });
        }
        queue.push(waiting);
        run.signal?.addEventListener(
          "abort",
          () => {
            const at = queue.indexOf(waiting);
            if (at >= 0) {
              queue.splice(at, 1);
              resolve(cancelledResult());
            }
          },
          { once: true },
        );
      });
    },
    stats: () => ({ running, queued: queue.length, size, queueLimit }),
    warmUp: async () => {
      await Promise.all(all.map((c) => c.warmUp()));
    },
    close() {
      closed = true;
      for (const waiting of queue.splice(0))
        waiting.resolve({ ok: false, error: sandboxError("cancelled", "The sandbox pool closed"), logs: [], stats: noStats });
      for (const controller of all) controller.dispose();
    },
  };
}
