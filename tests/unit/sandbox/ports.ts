import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import type { PortLike } from "@/lib/sandbox/worker-entry";
import type { MainToWorker, WorkerToMain } from "@/lib/sandbox/protocol";
import type { WorkerLike } from "@/lib/sandbox/run-controller";

type Listener = (event: { data: unknown }) => void;

/** One end of an in-memory message channel: structured-cloned, delivered on a later turn, like a real port. */
export class MemoryPort<Out> {
  other: MemoryPort<unknown> | undefined;
  closed = false;
  readonly sent: Out[] = [];
  private readonly listeners: Listener[] = [];

  postMessage(message: Out): void {
    if (this.closed) return;
    this.sent.push(message);
    const data = structuredClone(message);
    setImmediate(() => this.other?.deliver(data));
  }

  addEventListener(_type: "message", listener: Listener): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.closed = true;
  }

  private deliver(data: unknown): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener({ data });
  }
}

/** A linked pair: what `main` posts, `worker` receives, and back. */
export function portPair(): { main: MemoryPort<MainToWorker>; worker: MemoryPort<WorkerToMain> & PortLike } {
  const main = new MemoryPort<MainToWorker>();
  const worker = new MemoryPort<WorkerToMain>();
  main.other = worker;
  worker.other = main;
  return { main, worker };
}

/** A WorkerLike over a main-side port; `onTerminate` runs when the controller terminates it. */
export function workerOver(main: MemoryPort<MainToWorker>, onTerminate: () => void = () => undefined): WorkerLike & { terminated: boolean } {
  const fake = {
    terminated: false,
    postMessage: (message: MainToWorker) => main.postMessage(message),
    addEventListener: (type: "message" | "error", listener: unknown) => {
      if (type === "message") main.addEventListener("message", listener as Listener);
    },
    terminate: () => {
      fake.terminated = true;
      main.close();
      onTerminate();
    },
  };
  return fake;
}

/** The messages inside a worker → main message: a batch's contents, or the message itself. */
export function unbatch(message: WorkerToMain): WorkerToMain[] {
  return message.type === "batch" ? message.messages : [message];
}

/** Resolves with the next message on `port` that matches (looking inside batches). */
export function nextMessage<T extends WorkerToMain>(port: MemoryPort<MainToWorker>, match: (m: WorkerToMain) => m is T): Promise<T>;
export function nextMessage(port: MemoryPort<MainToWorker>, match: (m: WorkerToMain) => boolean): Promise<WorkerToMain>;
export function nextMessage(port: MemoryPort<MainToWorker>, match: (m: WorkerToMain) => boolean): Promise<WorkerToMain> {
  return new Promise((resolve) => {
    let done = false;
    port.addEventListener("message", ({ data }) => {
      for (const message of unbatch(data as WorkerToMain)) {
        if (!done && match(message)) {
          done = true;
          resolve(message);
        }
      }
    });
  });
}

/** A worker that really runs code: the sandbox's worker entry over an in-memory port pair, on the real QuickJS engine (in this thread). */
export function liveWorker(): WorkerLike & { terminated: boolean } {
  const { main, worker } = portPair();
  attachSandboxWorker(worker, () => releaseModule);
  return workerOver(main, () => worker.close());
}
const releaseModule = loadNodeModule("release");
