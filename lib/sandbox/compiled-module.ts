import type { InitMessage, WorkerToMain } from "./protocol";
import type { WorkerLike } from "./run-controller";

/**
 * The compiled QuickJS module a page's sandbox workers share. Every new worker gets `init` first:
 * where the .wasm is, and the compiled module once one is known. The first worker compiles the
 * .wasm itself and reports the module (`wasm`); the share keeps the first it hears of, so a worker
 * replaced after Stop, a timeout or a crash starts from compiled code. The page never compiles:
 * its policy allows no WebAssembly compilation, the worker's does (docs/ARCHITECTURE.md, "The sandbox contract").
 */
export class CompiledModuleShare {
  private module: WebAssembly.Module | undefined;

  constructor(private readonly wasmUrl: string) {}

  /** Sends `worker` its `init` and keeps the module it reports, if none is known yet. */
  start<W extends WorkerLike>(worker: W): W {
    const init: InitMessage = { type: "init", runId: null, wasmUrl: this.wasmUrl, ...(this.module ? { module: this.module } : {}) };
    worker.postMessage(init);
    if (!this.module)
      worker.addEventListener("message", (event) => {
        const message = event.data as WorkerToMain | null;
        if (message?.type === "wasm" && message.module instanceof WebAssembly.Module) this.module ??= message.module;
      });
    return worker;
  }

  /** Whether a compiled module is known (for tests). */
  get known(): boolean {
    return this.module !== undefined;
  }
}
