import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { errorResult, sandboxError } from "./errors";
import { classifyGuestError, writtenLine } from "./guest-error";
import { GUEST_PARTS } from "./guest-parts";
import { GUEST_PRELUDE, PRELUDE_FILENAME } from "./guest-prelude";
import { HelperHandles } from "./helper-handles";
import { CallScheduler, type CallHost, type CallOutcome } from "./call-scheduler";
import { LogSink } from "./log-sink";
import { refreshMemoryViews } from "./memory-views";
import { CODE_FILENAME, type NormalisedCode } from "./normalise";
import { checkSize, fromSerialized, parseCalls, primitiveValue, type Outcome } from "./guest-values";
import { cancelled, RunBudget } from "./run-budget";
import { quickJsMemoryLimit } from "./wasm-memory";
import type { LogEntry, RunEvent, RunResult, SandboxError, SandboxLimits } from "./types";
import { messageOf } from "../text/error-message";

/** What a run needs from a QuickJS WASM module (TestQuickJSWASMModule fits too). */
export type QuickJSModuleLike = Pick<QuickJSWASMModule, "newRuntime" | "getWasmMemory">;

export interface GuestRunInput {
  module: QuickJSModuleLike;
  code: NormalisedCode;
  /** JSON of the `data` object; each key becomes a read-only global. */
  dataJson: string;
  limits: SandboxLimits;
  callHost: CallHost;
  hostApi: Record<string, string[]>;
  onEvent?: (event: RunEvent) => void;
  signal?: AbortSignal;
}

// Jobs run in batches so a guest spinning on `await null` still lets host messages in.
const JOB_BATCH = 10_000;
const YIELD_AFTER_MS = 20;
// Room to build the error description after the guest ran out of memory.
const DESCRIBE_HEADROOM_BYTES = 4 * 1024 * 1024;

/**
 * One run: a fresh QuickJS runtime and context, the prelude, the person's code, and the job
 * loop that feeds host results back in until the program's promise settles or a limit ends it.
 * Every handle is disposed at the end, unless a host exception left WASM in an unknown state
 * (`poisoned`), in which case nothing more is touched and the engine replaces the module.
 */
export class GuestRun {
  poisoned = false;
  private runtime: QuickJSRuntime | undefined;
  private context: QuickJSContext | undefined;
  private helpers: HelperHandles | undefined;
  private main: QuickJSHandle | undefined;
  private readonly completions: CallOutcome[] = [];
  private readonly timers = new Map<number, number>();
  private readonly calls: CallScheduler;
  private readonly logs: LogSink;
  private readonly budget: RunBudget;
  private outboxFull = false;

  constructor(private readonly input: GuestRunInput) {
    const { limits } = input;
    // The clock starts here, once the module is loaded: WASM start-up is not the code's time.
    this.budget = new RunBudget(limits, input.module.getWasmMemory(), input.signal);
    this.calls = new CallScheduler({
      callHost: input.callHost,
      maxConcurrency: limits.maxConcurrency,
      maxCalls: limits.maxCalls,
      callTimeoutMs: limits.callTimeoutMs,
      now: () => this.budget.now(),
      emit: (event) => this.emit(event),
      suspendWall: () => this.budget.suspend(),
      onSettled: (outcome) => {
        this.completions.push(outcome);
        this.budget.wake();
      },
    });
    this.logs = new LogSink(limits.logBytes, (entry: LogEntry) => this.emit({ type: "log", entry }));
  }

  /** Runs to the end and always disposes; never rejects. */
  async execute(): Promise<RunResult> {
    const { signal } = this.input;
    const onAbort = () => {
      this.budget.fail(cancelled());
      this.calls.close("cancelled");
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let outcome: Outcome;
    try {
      outcome = signal?.aborted ? { error: cancelled() } : await this.runGuest();
    } catch (error) {
      outcome = { error: this.hostFailure(error) };
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.budget.close();
    }
    this.calls.close("error" in outcome ? `the run ended (${outcome.error.kind})` : "the run ended");
    this.dispose();
    const stats = { wallMs: this.budget.now(), hostCalls: this.calls.total, peakInFlight: this.calls.peakInFlight };
    const logs = this.logs.entries;
    return "error" in outcome ? errorResult(outcome.error, logs, stats) : { ok: true, value: outcome.value, logs, stats };
  }

  private async runGuest(): Promise<Outcome> {
    const { module, limits, code } = this.input;
    const runtime = (this.runtime = module.newRuntime());
    refreshMemoryViews(runtime);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(() => this.budget.shouldInterrupt());
    const context = (this.context = runtime.newContext());
    this.helpers = new HelperHandles(context, this.budget);
    const setupError = this.installPrelude(context, this.helpers);
    if (setupError) return { error: setupError };
    // Set after setup so the prelude's own allocations never count against the person's code.
    runtime.setMemoryLimit(quickJsMemoryLimit(limits.memoryBytes));
    const evaluated = this.budget.enter(() => context.evalCode(code.source, CODE_FILENAME, { type: "global" }));
    if (evaluated.error) return { error: this.errorFrom(evaluated.error, true) };
    this.main = evaluated.value;
    return this.drive(runtime, context, this.main);
  }

  private installPrelude(context: QuickJSContext, helpers: HelperHandles): SandboxError | undefined {
    const { hostApi, dataJson, limits } = this.input;
    const configJson = `{"api":${JSON.stringify(hostApi)},"data":${dataJson},"logChars":${limits.logBytes},"maxCalls":${limits.maxCalls},"codeFile":${JSON.stringify(CODE_FILENAME)}}`;
    if (!this.budget.admit(configJson, "data")) return this.budget.fatal;
    const setup = context.evalCode(GUEST_PRELUDE, PRELUDE_FILENAME, { type: "global" });
    if (setup.error) {
      setup.error.dispose();
      // A limit can interrupt the compile (the wall clock on a slow, loaded machine): that is no
      // broken module, so the run ends with the limit and its handles are disposed as usual.
      if (this.budget.fatal) return this.budget.fatal;
      throw new Error("The sandbox prelude failed to compile");
    }
    const hostSignal = context.newFunction("hostSignal", (kind) => {
      if (context.getString(kind) === "calls") this.outboxFull = true;
      else this.failMaxCalls();
    });
    const hostLog = context.newFunction("hostLog", (level, text) =>
      this.logs.add(context.getString(level), context.getString(text), this.budget.now()) ? context.true : context.false,
    );
    const hostTimer = context.newFunction("hostTimer", (id, ms) => {
      const delay = context.getNumber(ms);
      if (delay < 0) this.timers.delete(context.getNumber(id));
      else this.timers.set(context.getNumber(id), this.budget.now() + delay);
    });
    // Compiles a part inside the guest's call (guest-parts.ts): its cost is the run's, as it is used.
    const hostPart = context.newFunction("hostPart", (name) => {
      const part = context.getString(name);
      if (!Object.hasOwn(GUEST_PARTS, part)) return context.undefined;
      return context.evalCode(GUEST_PARTS[part] as string, PRELUDE_FILENAME, { type: "global" });
    });
    const config = context.newString(configJson);
    const args = [hostSignal, hostLog, hostTimer, hostPart, config];
    const result = this.budget.enter(() => context.callFunction(setup.value, context.undefined, ...args));
    for (const handle of [setup.value, ...args]) handle.dispose();
    if (result.error) return this.errorFrom(result.error, false);
    helpers.setSetup(result.value);
    return undefined;
  }

  /** Takes the guest's new tool calls (if it made any since the last look) and queues them. */
  private drainCalls(context: QuickJSContext): void {
    const drain = this.helpers?.get("drain");
    if (!this.outboxFull || this.budget.fatal || !drain) return;
    this.outboxFull = false;
    const result = this.budget.enter(() => context.callFunction(drain, context.undefined));
    if (result.error) {
      this.budget.fail(this.errorFrom(result.error, false));
      return;
    }
    const batch = parseCalls(context.getString(result.value));
    result.value.dispose();
    if (!batch) return this.budget.fail(sandboxError("runtime", "The sandbox's call bridge was tampered with"));
    const { lineOffset } = this.input.code;
    for (const [guestId, namespace, name, line, args] of batch) {
      const callId = this.calls.request(namespace, name, args, line > 0 ? writtenLine(line, lineOffset) : undefined);
      if (callId === undefined) return this.failMaxCalls();
      if (callId !== guestId) return this.budget.fail(sandboxError("runtime", `Tool call ids out of step: guest ${guestId}, host ${callId}`));
    }
  }

  private failMaxCalls(): void {
    const { maxCalls } = this.input.limits;
    this.budget.fail(sandboxError("limit", `Too many tool calls: the limit is ${maxCalls} per run`, { limit: "maxCalls" }));
  }

  private async drive(runtime: QuickJSRuntime, context: QuickJSContext, main: QuickJSHandle): Promise<Outcome> {
    let lastYield = performance.now();
    for (;;) {
      const stop = this.budget.check();
      if (stop) return { error: stop };
      this.applyCompletions(context);
      this.fireDueTimers(context);
      const jobs = this.budget.enter(() => runtime.executePendingJobs(JOB_BATCH));
      if (jobs.error) return { error: this.errorFrom(jobs.error, false) };
      this.drainCalls(context);
      if (this.budget.fatal) return { error: this.budget.fatal };
      this.calls.pump();
      const state = context.getPromiseState(main);
      if (state.type === "fulfilled") return this.readValue(state.value, context);
      if (state.type === "rejected") return { error: this.errorFrom(state.error, false) };
      if (runtime.hasPendingJob() || this.completions.length > 0 || this.nextTimerDue() <= this.budget.now()) {
        if (performance.now() - lastYield > YIELD_AFTER_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          lastYield = performance.now();
        }
        continue;
      }
      if (!this.calls.busy && this.timers.size === 0) {
        // Out of memory, QuickJS can drop a promise job on the floor: that is the real cause.
        if (this.budget.memoryRefused) return { error: this.budget.outOfMemory() };
        return {
          error: sandboxError("runtime", "The program awaits a promise that can never settle: no tool call or timer is pending"),
        };
      }
      await this.budget.sleep(this.nextTimerDue());
      lastYield = performance.now();
    }
  }

  /** Hands every finished call to the guest in one settle() call (one JSON parse in the guest). */
  private applyCompletions(context: QuickJSContext): void {
    const settle = this.helpers?.get("settle");
    if (this.completions.length === 0 || this.budget.fatal || !settle) return;
    const batch = this.completions.splice(0).map((outcome) => {
      if (!outcome.ok) return `[${outcome.callId},0,${JSON.stringify({ message: outcome.message, callId: outcome.callId, timeout: outcome.timeout })}]`;
      return outcome.valueJson === "" ? `[${outcome.callId},2]` : `[${outcome.callId},1,${outcome.valueJson}]`;
    });
    const text = `[${batch.join(",")}]`;
    if (!this.budget.admit(text, "tool results")) return;
    const payload = context.newString(text);
    const result = this.budget.enter(() => context.callFunction(settle, context.undefined, payload));
    payload.dispose();
    if (result.error) this.budget.fail(this.errorFrom(result.error, false));
    else result.value.dispose();
  }

  private fireDueTimers(context: QuickJSContext): void {
    const now = this.budget.now();
    const due = [...this.timers].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const fire = this.helpers?.get("fireTimer");
    for (const [id] of due) {
      if (this.budget.fatal || !fire) return;
      this.timers.delete(id);
      const idHandle = context.newNumber(id);
      const result = this.budget.enter(() => context.callFunction(fire, context.undefined, idHandle));
      idHandle.dispose();
      if (result.error) this.budget.fail(this.errorFrom(result.error, false));
      else result.value.dispose();
    }
  }

  private readValue(value: QuickJSHandle, context: QuickJSContext): Outcome {
    const { resultBytes } = this.input.limits;
    const quick = primitiveValue(context, value);
    const serialized = quick ? undefined : this.helpers?.serialize(value, resultBytes);
    value.dispose();
    if (quick) return checkSize(quick, resultBytes);
    if (!serialized) throw new Error("The sandbox prelude is missing");
    if ("error" in serialized) return { error: this.errorFrom(serialized.error, false) };
    return fromSerialized(serialized.text, resultBytes);
  }

  /** Describes a guest exception (disposing its handle) and classifies it. */
  private errorFrom(handle: QuickJSHandle, compiling: boolean): SandboxError {
    try {
      const { fatal } = this.budget;
      if (fatal || !this.helpers) return fatal ?? sandboxError("runtime", "The sandbox failed before the code ran");
      this.runtime?.setMemoryLimit(quickJsMemoryLimit(this.input.limits.memoryBytes + DESCRIBE_HEADROOM_BYTES));
      const info = this.helpers.describe(handle);
      if (this.budget.fatal) return this.budget.fatal;
      const error = classifyGuestError(info, {
        compiling,
        lineOffset: this.input.code.lineOffset,
        callRecord: (callId) => this.calls.record(callId),
        source: this.input.code.source,
        api: this.input.hostApi,
      });
      // With no memory left QuickJS cannot even build its error object and throws null.
      const starved = error.kind === "memory" || ("thrown" in info && info.thrown === "null");
      return this.budget.memoryRefused && starved ? this.budget.outOfMemory() : error;
    } finally {
      handle.dispose();
    }
  }

  /** A host exception escaped QuickJS: WASM may be mid-operation, so the module is written off. */
  private hostFailure(error: unknown): SandboxError {
    this.poisoned = true;
    if (error instanceof RangeError) return sandboxError("stack", `Stack overflow: recursion too deep (${error.message})`);
    return this.budget.fatal ?? sandboxError("runtime", `The sandbox failed: ${messageOf(error)}`);
  }

  private dispose(): void {
    if (this.poisoned) return;
    const handles = [...(this.helpers?.all() ?? []), this.main, this.context, this.runtime];
    for (const handle of handles) {
      try {
        if (handle?.alive) handle.dispose();
      } catch {
        this.poisoned = true;
      }
    }
  }

  private nextTimerDue(): number {
    return Math.min(Infinity, ...this.timers.values());
  }

  private emit(event: RunEvent): void {
    try {
      this.input.onEvent?.(event);
    } catch {
      // A listener's bug must not become the guest's exception.
    }
  }
}
