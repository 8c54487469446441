import { PauseCount } from "./pause-count";
import type { CallMessage, CallResultMessage, ClockMessage } from "./protocol";
import type { HostFunctions } from "./types";
import { messageOf } from "../text/error-message";

export interface MainCallsOptions {
  runId: string;
  host: HostFunctions;
  /** Queues a call-result for the worker (batched with the others of this turn). */
  answer: (message: CallResultMessage) => void;
  /** Sends a clock message at once (after anything queued, so order holds). */
  clock: (message: ClockMessage) => void;
  /** Holds the run's hard-stop deadline while the returned function is not called. */
  suspendRun: () => () => void;
}

/** A call whose host function is running. */
interface MainCall {
  abort: AbortController;
  pauses: PauseCount;
}

/**
 * The main-thread side of one run's tool calls: runs the host function for each `call` the
 * worker sends and answers with a `call-result`. The host function's AbortSignal trips when the
 * worker gives up on the call (`call-abort`) or the run ends; its suspendClock is mirrored to
 * the worker, where the clocks are, as `clock` messages. Answers for calls that are over
 * (aborted, or the run ended) are dropped: the worker would refuse them anyway.
 */
export class MainCalls {
  private readonly calls = new Map<number, MainCall>();

  constructor(private readonly options: MainCallsOptions) {}

  /** Runs the host function for a call from the worker. */
  answer(call: CallMessage): void {
    const { runId, host } = this.options;
    const { callId, namespace, name } = call;
    const entry = this.track(callId);
    const reply = (message: CallResultMessage) => {
      if (this.calls.get(callId) !== entry) return;
      this.calls.delete(callId);
      // The worker's side of the pause ends with the call; only the run's deadline is ours to free.
      entry.pauses.releaseAll();
      this.options.answer(message);
    };
    const tools = Object.hasOwn(host, namespace) ? host[namespace] : undefined;
    const fn = tools && Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (!fn) {
      reply({ type: "call-result", runId, callId, ok: false, error: `Unknown tool ${namespace}.${name}` });
      return;
    }
    // Once the call is over, suspending its clock means nothing.
    const suspendClock = () => (this.calls.get(callId) === entry ? entry.pauses.hold() : noop);
    Promise.resolve()
      .then(() => fn(call.argsJson === "" ? undefined : JSON.parse(call.argsJson), entry.abort.signal, { callId, suspendClock }))
      .then(
        (value) => reply({ type: "call-result", runId, callId, ok: true, valueJson: JSON.stringify(value) ?? "" }),
        (error: unknown) => reply({ type: "call-result", runId, callId, ok: false, error: messageOf(error) }),
      )
      .catch((error: unknown) =>
        reply({ type: "call-result", runId, callId, ok: false, error: `the host returned a value that is not JSON-safe: ${messageOf(error)}` }),
      );
  }

  /** The worker gave up on a call: abort its host function with the worker's reason. */
  abort(callId: number, reason: string): void {
    this.end(callId, new Error(reason));
  }

  /** The run is over: abort every call still running. */
  abortAll(): void {
    for (const callId of [...this.calls.keys()]) this.end(callId, undefined);
  }

  private track(callId: number): MainCall {
    const { runId } = this.options;
    let releaseRun: (() => void) | undefined;
    const entry: MainCall = {
      abort: new AbortController(),
      pauses: new PauseCount(
        () => {
          releaseRun = this.options.suspendRun();
          this.options.clock({ type: "clock", runId, callId, paused: true });
        },
        () => {
          releaseRun?.();
          releaseRun = undefined;
          if (this.calls.get(callId) === entry) this.options.clock({ type: "clock", runId, callId, paused: false });
        },
      ),
    };
    this.calls.set(callId, entry);
    return entry;
  }

  private end(callId: number, reason: Error | undefined): void {
    const entry = this.calls.get(callId);
    if (!entry) return;
    this.calls.delete(callId);
    entry.pauses.releaseAll();
    // No reason keeps the DOM's AbortError, as a cancelled run always gave.
    if (reason) entry.abort.abort(reason);
    else entry.abort.abort();
  }
}

function noop(): void {}
