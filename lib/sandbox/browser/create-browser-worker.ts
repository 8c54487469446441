import type { WorkerLike } from "../run-controller";

/**
 * Starts the sandbox module worker. Written literally as `new Worker(new URL(...), { type: "module" })`
 * so Turbopack sees the worker entry and bundles it.
 */
export function createSandboxWorker(): WorkerLike {
  return new Worker(new URL("../worker/sandbox.worker.ts", import.meta.url), { type: "module" });
}
