import { PauseCount } from "./pause-count";
import type { RunEvent } from "./types";
import { messageOf } from "../text/error-message";

/**
 * How the engine reaches the host for one tool call. `callId` numbers calls from 1 in the
 * order the guest made them; the worker uses it to match answers to questions.
 * `suspendClock` pauses the run's wall clock and this call's timeout (see HostCallInfo).
 */
export type CallHost = (
  namespace: string,
  name: string,
  args: unknown,
  signal: AbortSignal,
  callId: number,
  suspendClock: () => () => void,
) => Promise<unknown>;

/** How a call ended, as the guest will see it. `valueJson` is "" when the host returned undefined. */
export type CallOutcome = { callId: number; ok: true; valueJson: string } | { callId: number; ok: false; message: string; timeout: boolean };

/** What the engine knows about a call after the fact (for `tool` and `timeout` errors). */
export interface CallRecord {
  callId: number;
  namespace: string;
  name: string;
  timedOut: boolean;
}

interface QueuedCall {
  callId: number;
  namespace: string;
  name: string;
  args: unknown;
  /** The calling line as written, when the guest could tell. */
  line: number | undefined;
}

interface RunningCall extends QueuedCall {
  controller: AbortController;
  /** Unset while the call's clock is suspended. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Timeout left when the timer was (re)armed, and when that was. */
  timeLeft: number;
  armedAt: number;
  /** Made on the first suspend: most calls never suspend, and this runs per call. */
  pauses: PauseCount | undefined;
  /** Resumes the run's wall clock; set while this call holds it. */
  releaseWall: (() => void) | undefined;
}

export interface CallSchedulerOptions {
  callHost: CallHost;
  maxConcurrency: number;
  maxCalls: number;
  callTimeoutMs: number;
  /** Milliseconds since the run started. */
  now: () => number;
  emit: (event: RunEvent) => void;
  /** Suspends the run's wall clock until the returned function is called. */
  suspendWall: () => () => void;
  /** Called when a started call ends; the engine hands the outcome to the guest. */
  onSettled: (outcome: CallOutcome) => void;
}

/**
 * The host side of the promise bridge: a FIFO queue with a concurrency cap, a call budget, a
 * per-call timeout and abort signals. It never touches QuickJS, so it is safe to run from
 * host callbacks at any time.
 */
export class CallScheduler {
  private readonly queue: QueuedCall[] = [];
  private readonly running = new Map<number, RunningCall>();
  private readonly records = new Map<number, CallRecord>();
  private peak = 0;
  private closed = false;

  constructor(private readonly options: CallSchedulerOptions) {}

  /** Queues a call; returns its callId, or undefined when the maxCalls budget is spent. */
  request(namespace: string, name: string, args: unknown, line?: number): number | undefined {
    if (this.closed || this.records.size >= this.options.maxCalls) return undefined;
    const callId = this.records.size + 1;
    this.records.set(callId, { callId, namespace, name, timedOut: false });
    this.queue.push({ callId, namespace, name, args, line });
    return callId;
  }

  /** Starts queued calls while fewer than maxConcurrency are in flight. */
  pump(): void {
    while (!this.closed && this.running.size < this.options.maxConcurrency) {
      const next = this.queue.shift();
      if (!next) return;
      this.start(next);
    }
  }

  /** True while a call is queued or in flight (the guest may still be woken by one). */
  get busy(): boolean {
    return this.queue.length > 0 || this.running.size > 0;
  }

  get total(): number {
    return this.records.size;
  }

  get peakInFlight(): number {
    return this.peak;
  }

  record(callId: number): CallRecord | undefined {
    return this.records.get(callId);
  }

  /** Ends the run's calls: aborts those in flight (each gets a failed call-end) and drops the queue. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    for (const call of [...this.running.values()]) this.finish(call, { ok: false, message: reason, timeout: false }, false);
  }

  private start(call: QueuedCall): void {
    const { options } = this;
    const running: RunningCall = {
      ...call,
      controller: new AbortController(),
      timer: undefined,
      timeLeft: options.callTimeoutMs,
      armedAt: 0,
      releaseWall: undefined,
      pauses: undefined,
    };
    this.arm(running);
    this.running.set(call.callId, running);
    this.peak = Math.max(this.peak, this.running.size);
    const { callId, namespace, name, args, line } = call;
    const time = options.now();
    options.emit(
      line === undefined ? { type: "call-start", callId, namespace, name, args, time } : { type: "call-start", callId, namespace, name, args, time, line },
    );
    const suspendClock = () => this.suspendClock(running);
    let pending: Promise<unknown>;
    try {
      pending = options.callHost(namespace, name, args, running.controller.signal, callId, suspendClock);
    } catch (error) {
      pending = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    Promise.resolve(pending).then(
      (value) => this.finish(running, toJson(value), true),
      (error: unknown) => this.finish(running, { ok: false, message: messageOf(error), timeout: false }, true),
    );
  }

  private arm(call: RunningCall): void {
    call.armedAt = performance.now();
    call.timer = setTimeout(() => {
      const record = this.records.get(call.callId);
      if (record) record.timedOut = true;
      this.finish(call, { ok: false, message: `timed out after ${this.options.callTimeoutMs} ms`, timeout: true }, true);
    }, call.timeLeft);
  }

  /** HostCallInfo.suspendClock for a call. Once the call is over, its clock is the run's again: a late suspend does nothing. */
  private suspendClock(call: RunningCall): () => void {
    if (this.running.get(call.callId) !== call) return noop;
    call.pauses ??= new PauseCount(
      () => this.pauseClock(call),
      () => this.resumeClock(call),
    );
    return call.pauses.hold();
  }

  private pauseClock(call: RunningCall): void {
    clearTimeout(call.timer);
    call.timer = undefined;
    call.timeLeft = Math.max(0, call.timeLeft - (performance.now() - call.armedAt));
    call.releaseWall = this.options.suspendWall();
  }

  private resumeClock(call: RunningCall): void {
    call.releaseWall?.();
    call.releaseWall = undefined;
    if (this.running.get(call.callId) === call) this.arm(call);
  }

  private finish(call: RunningCall, outcome: OutcomeBody, notify: boolean): void {
    if (this.running.get(call.callId) !== call) return;
    this.running.delete(call.callId);
    clearTimeout(call.timer);
    // A host that forgot to resume must not leave the run's wall clock stopped for good.
    call.pauses?.releaseAll();
    if (!outcome.ok) call.controller.abort(new Error(outcome.message));
    const time = this.options.now();
    if (outcome.ok) this.options.emit({ type: "call-end", callId: call.callId, time, ok: true, value: outcome.value });
    else this.options.emit({ type: "call-end", callId: call.callId, time, ok: false, error: outcome.message });
    if (!notify) return;
    this.options.onSettled(
      outcome.ok
        ? { callId: call.callId, ok: true, valueJson: outcome.valueJson }
        : { callId: call.callId, ok: false, message: outcome.message, timeout: outcome.timeout },
    );
    this.pump();
  }
}

function noop(): void {}

type OutcomeBody = { ok: true; value: unknown; valueJson: string } | { ok: false; message: string; timeout: boolean };

function toJson(value: unknown): OutcomeBody {
  try {
    // JSON.stringify(undefined) is undefined: "" tells the guest the host returned undefined.
    const valueJson = JSON.stringify(value) ?? "";
    return { ok: true, value, valueJson };
  } catch (error) {
    return { ok: false, message: `the host returned a value that is not JSON-safe: ${messageOf(error)}`, timeout: false };
  }
}
