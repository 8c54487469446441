/**
 * Runs programs on a pool of sandbox worker threads: one run controller (one thread, one run at
 * a time, a fresh QuickJS context per run) per slot, `size` slots, a bounded queue in front of
 * them, and a clear `busy` result when the queue is full. Every limit of the playground
 * applies, because each slot is the playground's own RunController (wall and CPU clocks, the
 * watchdog that terminates a thread spinning in a builtin, per-call timeouts).
 *
 * The queue is fair, not FIFO (fair-queue.ts): a free slot goes to the client that has used the
 * sandbox least lately, and within a client to the program (by its code) that has used it least,
 * so one client's backlog, or a program that spins to its CPU limit again and again, cannot
 * starve the others. No run waits longer than `maxWaitMs` (30 s, under the 60 s an MCP client
 * waits by default): it gets a `busy` result that says how long it waited.
 * The code-mode MCP server runs its callers' programs here (docs/benchmarks.md, "The code-mode
 * MCP server").
 */
import { RunController, type WorkerLike } from "../run-controller";
import { sandboxError } from "../errors";
import type { HostFunctions, RunEvent, RunRequest, RunResult } from "../types";
import { threadWorker } from "./thread-worker";
import { FairQueue } from "../fair-queue";
import { hashCode } from "../../text/hash";

export interface ThreadPoolOptions {
  /** Runs at once (threads). */
  size: number;
  /** Runs waiting for a thread before new ones are refused as busy. */
  queueLimit: number;
  /** The longest a run waits for a thread before it is answered busy (default 30 000 ms). */
  maxWaitMs?: number;
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
  /** Who asked (an MCP session): the unit of fairness. */
  client?: string;
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
  lane: string;
  resolve: (result: RunResult) => void;
  timer?: ReturnType<typeof setTimeout>;
}

const noStats = { wallMs: 0, hostCalls: 0, peakInFlight: 0 };

/** Creates the pool; threads start on first use (or warmUp). */
export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const size = Math.max(1, Math.floor(options.size));
  const queueLimit = Math.max(0, Math.floor(options.queueLimit));
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const createWorker = options.createWorker ?? threadWorker;
  const idle: RunController[] = Array.from({ length: size }, () => new RunController({ createWorker }));
  const all = [...idle];
  const queue = new FairQueue<Waiting>();
  let running = 0;
  let closed = false;

  const cancelledResult = (): RunResult => ({
    ok: false,
    error: sandboxError("cancelled", "The run was cancelled before it started"),
    logs: [],
    stats: noStats,
  });
  const busy = (message: string): RunResult => ({ ok: false, error: sandboxError("busy", message), logs: [], stats: noStats });
  const programs = (n: number) => `${n} ${n === 1 ? "program is" : "programs are"}`;

  const start = (controller: RunController, waiting: Waiting) => {
    const { run, resolve } = waiting;
    clearTimeout(waiting.timer);
    running += 1;
    const began = performance.now();
    const handle = controller.run(run.request, run.host, run.onEvent);
    const onAbort = () => handle.cancel();
    run.signal?.addEventListener("abort", onAbort, { once: true });
    void handle.result.then((result) => {
      run.signal?.removeEventListener("abort", onAbort);
      running -= 1;
      queue.charge(run.client ?? "", waiting.lane, performance.now() - began);
      resolve(result);
      const next = closed ? undefined : queue.shift();
      if (next) start(controller, next.item);
      else idle.push(controller);
    });
  };

  return {
    run(run) {
      if (closed) return Promise.resolve(busy("The sandbox pool is closed"));
      if (run.signal?.aborted) return Promise.resolve(cancelledResult());
      return new Promise<RunResult>((resolve) => {
        // A program's lane is its code's hash: the usage kept after a run holds no program text.
        const waiting: Waiting = { run, resolve, lane: hashCode(run.request.code) };
        const controller = idle.pop();
        if (controller) return start(controller, waiting);
        if (queue.length >= queueLimit) {
          return resolve(busy(`Busy: ${programs(size)} running and ${queue.length} waiting (the limit); try again shortly`));
        }
        queue.push(waiting, run.client ?? "", waiting.lane);
        // Never longer than a client waits for an answer: a clear refusal instead of its timeout.
        waiting.timer = setTimeout(() => {
          if (!queue.remove(waiting)) return;
          resolve(
            busy(
              `Busy: waited ${maxWaitMs >= 1_000 ? `${Math.round(maxWaitMs / 1_000)} s` : `${maxWaitMs} ms`} for a sandbox while ${programs(running)} running and ${queue.length} waiting; try again shortly`,
            ),
          );
        }, maxWaitMs);
        waiting.timer.unref?.();
        run.signal?.addEventListener(
          "abort",
          () => {
            if (!queue.remove(waiting)) return;
            clearTimeout(waiting.timer);
            resolve(cancelledResult());
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
      for (let next = queue.shift(); next; next = queue.shift()) {
        clearTimeout(next.item.timer);
        next.item.resolve({ ok: false, error: sandboxError("cancelled", "The sandbox pool closed"), logs: [], stats: noStats });
      }
      for (const controller of all) controller.dispose();
    },
  };
}
