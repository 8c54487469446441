import { CompiledModuleShare } from "../compiled-module";
import type { WorkerLike } from "../run-controller";

/** Where scripts/build-worker.mjs puts the worker bundle (public/_sandbox/). */
export const SANDBOX_WORKER_PATH = "/_sandbox/sandbox-worker.js";

let pageShare: CompiledModuleShare | undefined;

/**
 * A compiled-module share for the .wasm Turbopack emits for the package's `./wasm` export
 * (content-hashed, cached for good); the worker fetches and compiles it.
 */
export function newCompiledModuleShare(): CompiledModuleShare {
  return new CompiledModuleShare(new URL("@jitl/quickjs-wasmfile-release-sync/wasm", import.meta.url).href);
}

/**
 * Starts a sandbox worker: one self-contained module script (scripts/build-worker.mjs). `share` is
 * the page's unless a caller (the bench, timing a page's first worker) passes a fresh one.
 */
export function createSandboxWorker(share: CompiledModuleShare = (pageShare ??= newCompiledModuleShare())): WorkerLike {
  return share.start(SANDBOX_WORKER_PATH, (url) => new Worker(url, { type: "module" }));
}
