import type { InitMessage, WorkerToMain } from "./protocol";
import type { WorkerLike } from "./run-controller";

/**
 * What a browser sandbox worker reads from its own URL's fragment before any message can reach
 * it: whether the page will post it a compiled module (`init`). A worker told nothing compiles
 * its own .wasm (whose address its bundle carries) at once: a message to a starting worker is
 * delivered through the page's main thread, which is busy hydrating while the first worker starts.
 */
export interface WorkerBoot {
  awaitModule: boolean;
}

/** The fragment for a worker's URL: `#module=1` when init will bring a module, else none. */
export function workerBootHash(boot: WorkerBoot): string {
  return boot.awaitModule ? "#module=1" : "";
}

/** Reads a worker's fragment. */
export function parseWorkerBoot(hash: string): WorkerBoot {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  return { awaitModule: params.get("module") === "1" };
}

/**
 * The compiled QuickJS module a page's sandbox workers share. The first worker compiles the .wasm
 * itself and reports the module (`wasm`); the share keeps the first it hears of, and every worker
 * after that starts waiting for `init` and gets it, so a worker replaced after Stop, a timeout or
 * a crash starts from compiled code. The page never compiles: its policy allows no WebAssembly
 * compilation, the worker's does (docs/sandbox.md, "The sandbox contract").
 */
export class CompiledModuleShare {
  private module: WebAssembly.Module | undefined;

  /** Starts a worker through `create` (given the script URL with its boot fragment), sends `init` when a module is known, and keeps the one it reports otherwise. */
  start<W extends WorkerLike>(scriptUrl: string, create: (url: string) => W): W {
    const module = this.module;
    const worker = create(scriptUrl + workerBootHash({ awaitModule: module !== undefined }));
    if (module) {
      const init: InitMessage = { type: "init", runId: null, module };
      worker.postMessage(init);
    } else
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
