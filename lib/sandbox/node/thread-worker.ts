/**
 * The sandbox worker as a Node worker thread (sandbox-thread.ts), shaped as the run
 * controller's WorkerLike: a real thread, so a guest spinning in QuickJS truly cannot read its
 * messages and terminate() truly stops it. Under tsx or Vitest the entry is a .ts file and
 * the thread loads it through tsx; in the Next server the bundler rewrites the URL to its
 * compiled chunk, and in the installed package's bundled CLI scripts/package.mjs points it at
 * the compiled thread beside the bundle.
 */
import { Worker } from "node:worker_threads";
import type { MainToWorker } from "../protocol";
import type { WorkerLike } from "../run-controller";

/** A started thread as the run controller drives it, plus the thread and its exit. */
export function threadWorker(): WorkerLike & { thread: Worker; exited: Promise<number> } {
  // The literal `new Worker(new URL(...))` is what the bundler recognises as a worker entry.
  const compiled = Boolean(process.env.NEXT_RUNTIME) || !import.meta.url.endsWith(".ts");
  const thread = compiled
    ? new Worker(new URL("./sandbox-thread.ts", import.meta.url))
    : new Worker(new URL("./sandbox-thread.ts", import.meta.url), { execArgv: ["--import", "tsx"] });
  const exited = new Promise<number>((resolve) => thread.once("exit", resolve));
  return {
    thread,
    exited,
    postMessage: (message: MainToWorker) => thread.postMessage(message),
    addEventListener: (type: "message" | "error", listener: unknown) => {
      if (type === "message") thread.on("message", (data: unknown) => (listener as (e: { data: unknown }) => void)({ data }));
      else thread.on("error", (error: Error) => (listener as (e: { message: string }) => void)({ message: error.message }));
    },
    terminate: () => void thread.terminate(),
  };
}
