import { CompiledModuleShare } from "../compiled-module";
import type { WorkerLike } from "../run-controller";

/** One per page: every sandbox worker of the page starts from the module the first one compiled. */
const PAGE_SHARE = new CompiledModuleShare();

/**
 * Starts the sandbox module worker. Written literally as `new Worker(new URL(...), { type: "module" })`
 * so Turbopack sees the worker entry and bundles it. `share` is the page's unless a caller (the
 * bench, timing a page's first worker) passes a fresh one.
 */
export function createSandboxWorker(share: CompiledModuleShare = PAGE_SHARE): WorkerLike {
  return share.start(new Worker(new URL("../worker/sandbox.worker.ts", import.meta.url), { type: "module" }));
}
