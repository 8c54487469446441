import { sandboxError } from "./errors";
import { PauseCount } from "./pause-count";
import { utf8ByteLength } from "./utf8";
import { gateGrowth, MODULE_MEMORY_CAP_BYTES, type GrowthGate } from "./wasm-memory";
import type { SandboxError, SandboxLimits } from "./types";

// The smallest step Emscripten's heap growth tries, as a share of the current size.
const GROWTH_STEP = 0.05;
// setTimeout's longest delay; a longer one fires at once (and a spurious wake-up is harmless).
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One run's clocks, memory allowance and stop reason. The first limit hit (or the cancel) is
 * `fatal`; from then on the interrupt handler stops the guest at its next poll and the job loop
 * ends the run. Pure host-side bookkeeping: it never calls into QuickJS.
 *
 * The wall clock can be suspended (a person approving a call): `now()` stays real elapsed time,
 * for event timestamps, while the wall deadline counts only time not suspended.
 */
export class RunBudget {
  fatal: SandboxError | undefined;
  /** Set once growth was refused while the guest ran: its out-of-memory errors are ours. */
  memoryRefused = false;
  private readonly startedAt = performance.now();
  private cpuUsed = 0;
  private sliceStart: number | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly gate: GrowthGate;
  private readonly ungate: () => void;
  private suspendedMs = 0;
  private suspendedAt = 0;
  private readonly suspensions = new PauseCount(
    () => (this.suspendedAt = performance.now()),
    () => {
      this.suspendedMs += performance.now() - this.suspendedAt;
      // The job loop may sleep with no wall deadline in sight: let it count again.
      this.wake();
    },
  );

  constructor(
    private readonly limits: SandboxLimits,
    private readonly memory: WebAssembly.Memory,
    private readonly signal: AbortSignal | undefined,
  ) {
    const atStart = memory.buffer.byteLength;
    // Emscripten grows by a share of the current size (down to 5%), so allow that much over.
    const overgrowth = Math.ceil(atStart * GROWTH_STEP);
    this.gate = {
      maxBytes: atStart + limits.memoryBytes + overgrowth,
      active: false,
      // Not fatal by itself: Emscripten retries with smaller steps, and QuickJS throws a
      // catchable out-of-memory error when all fail. Uncaught, it ends the run as `memory`.
      onRefused: () => (this.memoryRefused = true),
    };
    this.ungate = gateGrowth(memory, this.gate);
  }

  /** Milliseconds since the run started (real time, suspensions included). */
  now(): number {
    return performance.now() - this.startedAt;
  }

  /** Stops the wall clock until the returned function is called; reference-counted. */
  suspend(): () => void {
    return this.suspensions.hold();
  }

  /** Milliseconds that count against wallMs: real time less the time the clock was suspended. */
  private wallUsed(): number {
    const now = performance.now();
    const suspended = this.suspendedMs + (this.suspensions.paused ? now - this.suspendedAt : 0);
    return now - this.startedAt - suspended;
  }

  /** Records the first reason to stop, and wakes the job loop if it sleeps. */
  fail(error: SandboxError): void {
    this.fatal ??= error;
    this.wake();
  }

  /** The interrupt handler: true stops the guest (an uncatchable InternalError inside QuickJS). */
  shouldInterrupt(): boolean {
    if (this.fatal) return true;
    const { limits } = this;
    if (this.signal?.aborted) this.fail(cancelled());
    else if (this.memoryExceeded()) this.fail(this.outOfMemory());
    else if (this.wallUsed() >= limits.wallMs) this.fail(this.wallTimeout());
    else if (this.sliceStart !== undefined && this.cpuUsed + (performance.now() - this.sliceStart) > limits.cpuMs) {
      this.fail(sandboxError("timeout", `The code used more than ${limits.cpuMs} ms of CPU time`, { clock: "cpu" }));
    }
    return this.fatal !== undefined;
  }

  /** Checks the clocks between guest slices (the interrupt handler only runs inside them). */
  check(): SandboxError | undefined {
    if (!this.fatal && this.wallUsed() >= this.limits.wallMs) this.fail(this.wallTimeout());
    return this.fatal;
  }

  /**
   * Runs guest code: counts the time against the CPU budget, and gates memory growth while the
   * guest runs. Host-side allocations, outside, must never see a failed malloc: the library
   * writes through the pointer it gets.
   */
  enter<T>(body: () => T): T {
    if (this.sliceStart !== undefined) return body();
    const start = performance.now();
    this.sliceStart = start;
    this.gate.active = true;
    try {
      return body();
    } finally {
      this.gate.active = false;
      this.cpuUsed += performance.now() - start;
      this.sliceStart = undefined;
      if (!this.fatal && this.memoryExceeded()) this.fail(this.outOfMemory());
    }
  }

  /** Waits until `wake()`, a limit, or `untilMs` (run time), whichever comes first. */
  sleep(untilMs: number): Promise<void> {
    const wallLeft = this.suspensions.paused ? Infinity : this.limits.wallMs - this.wallUsed();
    const ms = Math.max(0, Math.min(wallLeft, untilMs - this.now()));
    return new Promise((resolve) => {
      // Suspended with no timer due: only wake() (a call ends, the clock resumes) can end the wait.
      const timer = ms === Infinity ? undefined : setTimeout(() => this.wake(), Math.min(ms, MAX_TIMER_MS));
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  /**
   * Whether a host string may be copied into guest memory. It enters outside the growth gate (a
   * refused malloc there would be written through), so one larger than the whole memory limit
   * ends the run instead.
   */
  admit(text: string, what: string): boolean {
    const { memoryBytes } = this.limits;
    if (text.length <= memoryBytes / 3 || utf8ByteLength(text) <= memoryBytes) return true;
    this.fail(sandboxError("memory", `Out of memory: the ${what} are larger than the ${memoryBytes}-byte limit`));
    return false;
  }

  /** Releases the memory gate; the run is over. */
  close(): void {
    this.ungate();
  }

  /**
   * QuickJS's memory limit misses big strings and buffers (see wasm-memory.ts): growth of the
   * module's linear memory past the limit is refused while the guest runs (the gate), and
   * checked here for growth the host caused (a large tool result). Memory only grows past
   * what earlier runs left free; the engine replaces a module that grew large.
   */
  private memoryExceeded(): boolean {
    return this.memory.buffer.byteLength > this.gate.maxBytes;
  }

  /** The error of a run over its memory limit. */
  outOfMemory(): SandboxError {
    const { memoryBytes } = this.limits;
    const limit = memoryBytes > MODULE_MEMORY_CAP_BYTES ? `sandbox's ${MODULE_MEMORY_CAP_BYTES}-byte ceiling` : `${memoryBytes}-byte limit`;
    return sandboxError("memory", `Out of memory: the code used more than the ${limit}`);
  }

  private wallTimeout(): SandboxError {
    return sandboxError("timeout", `The run took longer than the ${this.limits.wallMs} ms wall-clock limit`, { clock: "wall" });
  }
}

/** The error of a cancelled run. */
export function cancelled(): SandboxError {
  return sandboxError("cancelled", "The run was cancelled");
}
