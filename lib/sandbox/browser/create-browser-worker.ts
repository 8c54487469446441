import { CompiledModuleShare } from "../compiled-module";
import type { WorkerLike } from "../run-controller";
import { takeEarlyWorker } from "./early-worker";

/** Where scripts/build-worker.mjs puts the worker bundle (public/_sandbox/), its .wasm beside it. */
export const SANDBOX_WORKER_PATH = "/_sandbox/sandbox-worker.js";

let pageShare: CompiledModuleShare | undefined;

/**
 * Starts a sandbox worker: one self-contained module script (scripts/build-worker.mjs). Without
 * `share`, it is the page's: its first worker is the one the page's inline script started, when
 * there is one (./early-worker.ts). A caller timing a first worker (the bench) passes a fresh share.
 */
export function createSandboxWorker(share?: CompiledModuleShare): WorkerLike {
  const own = share ?? (pageShare ??= new CompiledModuleShare());
  return own.start(SANDBOX_WORKER_PATH, (url) => (share ? undefined : takeEarlyWorker(url)) ?? new Worker(url, { type: "module" }));
}
