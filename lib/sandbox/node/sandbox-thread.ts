// Node worker_threads entry of the sandbox: the same protocol as the browser's Web Worker
// (../worker-entry.ts), served on the thread's parent port, with the wasmfile QuickJS build
// that reads its .wasm from disk. thread-pool.ts starts these (docs/benchmarks.md, "The
// code-mode MCP server").
import { parentPort } from "node:worker_threads";
import { attachSandboxWorker } from "../worker-entry";
import type { WorkerToMain } from "../protocol";
import { loadNodeModule } from "./node-engine";

const port = parentPort;
if (!port) throw new Error("sandbox-thread.ts runs only as a worker thread");

attachSandboxWorker(
  {
    postMessage: (message: WorkerToMain) => port.postMessage(message),
    addEventListener: (_type, listener) => port.on("message", (data: unknown) => listener({ data })),
  },
  () => loadNodeModule("release"),
);
