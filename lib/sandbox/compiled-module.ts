import type { InitMessage, WorkerToMain } from "./protocol";
import type { WorkerLike } from "./run-controller";

/**
 * The compiled QuickJS module a page's sandbox workers share. Every new worker gets `init` first,
 * with the module if one is known; the first worker that reports one (`wasm`) sets it for the
 * workers after it. A worker replaced after Stop, a timeout or a crash then starts from compiled
 * code instead of downloading and compiling the .wasm again (docs/ARCHITECTURE.md, "The sandbox contract").
 */
export class CompiledModuleShare {
  private module: WebAssembly.Module | undefined;

  /** Starts `worker` (it waits for `init`) and listens for the module it compiles, if none is known. */
  start<W extends WorkerLike>(worker: W): W {
    const init: InitMessage = { type: "init", runId: null, ...(this.module ? { module: this.module } : {}) };
    worker.postMessage(init);
    if (!this.module)
      worker.addEventListener("message", (event) => {
        const message = event.data as WorkerToMain | null;
        if (message?.type === "wasm" && message.module instanceof WebAssembly.Module) this.module ??= message.module;
      });
    return worker;
  }

  /** Whether a compiled module is known (for tests and the bench). */
  get known(): boolean {
    return this.module !== undefined;
  }
}
