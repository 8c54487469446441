import { Worker } from "node:worker_threads";
import type { MainToWorker } from "@/lib/sandbox/protocol";
import type { WorkerLike } from "@/lib/sandbox/run-controller";

const ENTRY = new URL("./fixtures/node-sandbox-worker.ts", import.meta.url);

/** A real thread, so a guest spinning in QuickJS truly cannot read its messages. */
export function threadWorker(): WorkerLike & { thread: Worker; exited: Promise<number> } {
  const thread = new Worker(ENTRY, { execArgv: ["--import", "tsx"] });
  return {
    thread,
    exited: new Promise((resolve) => thread.once("exit", resolve)),
    postMessage: (message: MainToWorker) => thread.postMessage(message),
    addEventListener: (type: "message" | "error", listener: unknown) => {
      if (type === "message") thread.on("message", (data: unknown) => (listener as (e: { data: unknown }) => void)({ data }));
      else thread.on("error", (error: Error) => (listener as (e: { message: string }) => void)({ message: error.message }));
    },
    terminate: () => void thread.terminate(),
  };
}
