/**
 * Programs that wait for an approval across requests: how the code-mode server asks a
 * 2026-07-28 client about a destructive call (docs/benchmarks.md, "The code-mode MCP server").
 * That revision has no server-to-client requests; the server answers the call with
 * `input_required` instead and the client sends the call again with the answer. The program
 * cannot stop and start again, so it keeps running here, paused in its `ask`, between the two
 * requests: `start` runs it until it ends or asks, `answer` hands a question its answer, `next`
 * waits again. A run nobody comes back to is denied and dropped after `ttlMs`.
 *
 * Each question has a number, and each number is answered once: the same answer sent again (a
 * replayed `requestState`) finds nothing waiting. Pure apart from timers.
 */
import type { AskClient, ExecuteOutcome } from "./service";

/** What a paused run is asking. */
export type Question = Parameters<AskClient>[0];

/** Where a run stands when a request looks at it. */
export type RunStep = { kind: "done"; outcome: ExecuteOutcome } | { kind: "ask"; n: number; question: Question };

interface Waiting {
  n: number;
  question: Question;
  resolve: (yes: boolean) => void;
}

interface PausedRun {
  /** The program's outcome, once it ends. */
  outcome: Promise<ExecuteOutcome>;
  /** The question it waits on now. */
  waiting?: Waiting;
  /** Told when the run asks its next question (or ends). */
  wake?: () => void;
  asked: number;
  stop: AbortController;
  expiry?: ReturnType<typeof setTimeout>;
}

/** How long a paused run waits for the request that answers it. */
export const DEFAULT_PAUSE_TTL_MS = 5 * 60_000;
/** Runs paused at once; past it a new run that asks is denied at once. */
export const MAX_PAUSED_RUNS = 256;

export class ApprovalRounds {
  private readonly runs = new Map<string, PausedRun>();
  private next = 0;

  constructor(private readonly options: { ttlMs?: number; newId?: () => string } = {}) {}

  get size(): number {
    return this.runs.size;
  }

  /**
   * Starts a run; `run` gets the `ask` its approvals go through and the signal that stops it
   * (the run's own, not one request's: the run outlives the request that started it).
   */
  start(run: (ask: AskClient, signal: AbortSignal) => Promise<ExecuteOutcome>): string {
    const id = this.options.newId?.() ?? `run-${Date.now().toString(36)}-${(++this.next).toString(36)}`;
    const entry: PausedRun = { asked: 0, stop: new AbortController(), outcome: Promise.resolve(undefined as never) };
    const ask: AskClient = (question, signal) => {
      if (this.runs.size > MAX_PAUSED_RUNS) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const n = ++entry.asked;
        const settle = (yes: boolean) => {
          if (entry.waiting?.n !== n) return;
          entry.waiting = undefined;
          signal.removeEventListener("abort", denied);
          resolve(yes);
        };
        const denied = () => settle(false);
        signal.addEventListener("abort", denied, { once: true });
        entry.waiting = { n, question, resolve: settle };
        this.arm(id, entry);
        entry.wake?.();
      });
    };
    entry.outcome = run(ask, entry.stop.signal).finally(() => {
      clearTimeout(entry.expiry);
      entry.wake?.();
    });
    this.runs.set(id, entry);
    return id;
  }

  /** Waits until the run ends or asks; `signal` (the request's) stops the run when it aborts first. */
  async step(id: string, signal?: AbortSignal): Promise<RunStep | undefined> {
    const entry = this.runs.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.expiry);
    const ended = entry.outcome.then((outcome) => ({ kind: "done" as const, outcome }));
    const asked = new Promise<RunStep>((resolve) => {
      const check = () => {
        if (entry.waiting) resolve({ kind: "ask", n: entry.waiting.n, question: entry.waiting.question });
      };
      entry.wake = check;
      check();
    });
    const stop = () => entry.stop.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      const step = await Promise.race([ended, asked]);
      if (step.kind === "done") this.runs.delete(id);
      else this.arm(id, entry);
      return step;
    } finally {
      entry.wake = undefined;
      signal?.removeEventListener("abort", stop);
    }
  }

  /** Gives question `n` of run `id` its answer; false when nothing waits for it (answered, expired, or never asked). */
  answer(id: string, n: number, yes: boolean): boolean {
    const waiting = this.runs.get(id)?.waiting;
    if (waiting?.n !== n) return false;
    waiting.resolve(yes);
    return true;
  }

  /** Stops run `id` (the request waiting on it went away); its question is denied. */
  stop(id: string): void {
    const entry = this.runs.get(id);
    if (entry) this.expire(id, entry, new Error("The request waiting on this program went away"));
  }

  /** Stops every run (the server is closing). */
  close(): void {
    for (const [id, entry] of this.runs) this.expire(id, entry);
  }

  // A paused run nobody comes back to: its question is denied, the run stopped and dropped.
  private arm(id: string, entry: PausedRun): void {
    clearTimeout(entry.expiry);
    entry.expiry = setTimeout(() => this.expire(id, entry), this.options.ttlMs ?? DEFAULT_PAUSE_TTL_MS);
    entry.expiry.unref?.();
  }

  private expire(id: string, entry: PausedRun, why = new Error("Nobody answered this program's approval in time")): void {
    clearTimeout(entry.expiry);
    this.runs.delete(id);
    entry.waiting?.resolve(false);
    entry.stop.abort(why);
  }
}
