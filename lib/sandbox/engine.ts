/**
 * The sandbox engine: runs one program per fresh QuickJS runtime and returns a typed result.
 * Framework-free; the WASM variant is injected (the wasmfile variant, in Node and in the worker).
 *
 * Behaviours the contract leaves open, decided here (each has a test):
 * - A per-call timeout rejects that call in the guest with a ToolError; uncaught, the run ends
 *   as `timeout` with clock "call" and the call named in `call`.
 * - Console output over `logBytes` is truncated: the line that crosses is cut, one `warn`
 *   marker line follows, later lines are dropped, and the run goes on.
 * - A program that awaits something that can never settle (no call, no timer pending) ends at
 *   once as `runtime`, rather than idling to the wall clock. A call that never answers ends by
 *   its per-call timeout or the wall clock, whichever is first.
 * - `undefined` (no return value), NaN and ±Infinity come back as null, as JSON would have it.
 * - Going over `maxCalls` ends the run (`limit`); the guest cannot catch it.
 * - Memory: QuickJS's own limit misses big strings and buffers in this build, so growth of the
 *   module's WASM memory is gated per run. A run may use what earlier runs left free (a module
 *   past 64 MB is replaced after the run) plus its `memoryBytes`; no module passes 512 MB.
 * - CPU: QuickJS polls the interrupt handler every ~10 000 backward jumps, so a loop of long
 *   builtins overshoots `cpuMs`; in the browser the RunController's watchdog stops it.
 * - Guest globals: the ECMAScript built-ins, console, setTimeout/clearTimeout (bounded by the
 *   run's clocks), callTool, one object per tool namespace, and the `data` keys. No fetch, no
 *   module loader (code runs as a script), nothing from the host.
 */
import { sandboxError } from "./errors";
import { GuestRun, type QuickJSModuleLike } from "./guest-run";
import type { CallHost } from "./call-scheduler";
import { resolveLimits } from "./limits";
import { loadTypeStripper, normaliseCode } from "./normalise";
import type { RunEvent, RunRequest, RunResult, SandboxError } from "./types";
import { MODULE_MEMORY_RELOAD_BYTES } from "./wasm-memory";

export type { CallHost } from "./call-scheduler";
export type { QuickJSModuleLike } from "./guest-run";

/** Loads (instantiates) a QuickJS WASM module; the variant is the caller's choice. */
export type ModuleLoader = () => Promise<QuickJSModuleLike>;

/** Options for one run. */
export interface EngineRunOptions {
  onEvent?: (event: RunEvent) => void;
  signal?: AbortSignal;
  /** Tool names by namespace: each namespace becomes a global object of async functions. */
  hostApi?: Record<string, string[]>;
}

/** Runs code in QuickJS; one fresh runtime and context per run. */
export interface SandboxEngine {
  /** Resolves with a typed result for every outcome; rejects only for invalid limits or a module that will not load. */
  run(request: RunRequest, callHost: CallHost, options?: EngineRunOptions): Promise<RunResult>;
}

/**
 * Creates an engine over a lazily loaded WASM module, shared by all its runs. The module is
 * loaded again after a run poisoned it (V8's own stack overflowed inside WASM, which QuickJS
 * cannot catch and which leaves its heap in an unknown state), and after a run grew its
 * linear memory past MODULE_MEMORY_RELOAD_BYTES (WASM memory never shrinks; a new module
 * gives it back and keeps the next run's memory check exact).
 */
export function createEngine(loadModule: ModuleLoader): SandboxEngine {
  let module: Promise<QuickJSModuleLike> | undefined;

  return {
    async run(request, callHost, options = {}) {
      const startedAt = performance.now();
      const limits = resolveLimits(request.limits);
      const early = (error: SandboxError): RunResult => ({
        ok: false,
        error,
        logs: [],
        stats: { wallMs: performance.now() - startedAt, hostCalls: 0, peakInFlight: 0 },
      });
      let code = normaliseCode(request.code);
      if ("needsTypeStripper" in code) {
        await loadTypeStripper();
        code = normaliseCode(request.code);
      }
      if ("needsTypeStripper" in code) return early(sandboxError("runtime", "The TypeScript stripper did not load"));
      if ("error" in code) return early(code.error);
      const data: unknown = request.data ?? {};
      if (typeof data !== "object" || data === null || Array.isArray(data)) {
        return early(sandboxError("serialization", "The run's data must be an object whose keys become globals"));
      }
      let dataJson: string;
      try {
        dataJson = JSON.stringify(data);
      } catch (error) {
        return early(sandboxError("serialization", `The run's data is not JSON-safe: ${(error as Error).message}`));
      }
      module ??= loadModule().catch((error: unknown) => {
        module = undefined;
        throw error;
      });
      const loaded = await module;
      const run = new GuestRun({
        module: loaded,
        code,
        dataJson,
        limits,
        callHost,
        hostApi: options.hostApi ?? {},
        onEvent: options.onEvent,
        signal: options.signal,
      });
      const result = await run.execute();
      if (run.poisoned || loaded.getWasmMemory().buffer.byteLength > MODULE_MEMORY_RELOAD_BYTES) module = undefined;
      return result;
    },
  };
}
