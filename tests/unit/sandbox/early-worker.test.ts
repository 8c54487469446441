/**
 * The page's first sandbox worker, started by the page's inline script before its JavaScript
 * loads (lib/sandbox/browser/early-worker.ts): the script's own text run in a context with a
 * stand-in Worker, then taken by the page as createSandboxWorker takes it.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { EARLY_WORKER_GLOBAL, earlyWorkerScript, takeEarlyWorker } from "@/lib/sandbox/browser/early-worker";

/** A Worker stand-in: an event target that records what it is sent and whether it was stopped. */
class FakeWorker extends EventTarget {
  static made: FakeWorker[] = [];
  readonly sent: unknown[] = [];
  terminated = false;
  constructor(
    readonly url: string,
    readonly options: unknown,
  ) {
    super();
    FakeWorker.made.push(this);
  }
  postMessage(message: unknown) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  say(data: unknown) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  fail(message: string) {
    const event = new Event("error");
    Object.assign(event, { message });
    this.dispatchEvent(event);
  }
}

/** Runs the inline script as the page does, in a window of its own; returns that window and the worker it started. */
function runScript(url: string): { window: Record<string, unknown>; worker: FakeWorker } {
  FakeWorker.made = [];
  const window: Record<string, unknown> = {};
  runInNewContext(earlyWorkerScript(url), { window, Worker: FakeWorker });
  const worker = FakeWorker.made[0];
  if (!worker) throw new Error("the script started no worker");
  return { window, worker };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the page's early sandbox worker", () => {
  it("starts a module worker at the script URL; the page gets what it said before, then what it says after, in order", async () => {
    const { window, worker } = runScript("/_sandbox/sandbox-worker.js");
    expect(worker.url).toBe("/_sandbox/sandbox-worker.js");
    expect(worker.options).toEqual({ type: "module" });
    worker.say({ type: "wasm", n: 1 });
    worker.say({ type: "ready", n: 2 });
    worker.fail("boom");

    const taken = takeEarlyWorker("/_sandbox/sandbox-worker.js", window);
    expect(taken).toBeDefined();
    const heard: string[] = [];
    taken?.addEventListener("message", (event) => heard.push(`message ${(event.data as { n: number }).n}`));
    taken?.addEventListener("error", (event) => heard.push(`error ${event.message}`));
    // An event after the take but before the kept ones are handed over waits behind them.
    worker.say({ type: "event", n: 3 });
    expect(heard).toEqual([]);
    await flush();
    worker.say({ type: "done", n: 4 });
    expect(heard).toEqual(["message 1", "message 2", "error boom", "message 3", "message 4"]);

    taken?.postMessage({ type: "warm", runId: null });
    expect(worker.sent).toEqual([{ type: "warm", runId: null }]);
    // Taken once: the global is cleared, and a second take starts nothing of its own.
    expect(window[EARLY_WORKER_GLOBAL]).toBeNull();
    expect(takeEarlyWorker("/_sandbox/sandbox-worker.js", window)).toBeUndefined();
    taken?.terminate();
    expect(worker.terminated).toBe(true);
  });

  it("a worker started at another URL is stopped and not used; no script, or something else under the name, gives nothing", () => {
    const { window, worker } = runScript("/_sandbox/sandbox-worker.js");
    expect(takeEarlyWorker("/_sandbox/sandbox-worker.js#module=1", window)).toBeUndefined();
    expect(worker.terminated).toBe(true);
    expect(takeEarlyWorker("/_sandbox/sandbox-worker.js", {})).toBeUndefined();
    for (const forged of [
      null,
      1,
      "worker",
      { url: "/_sandbox/sandbox-worker.js" },
      { url: "/_sandbox/sandbox-worker.js", worker: {}, queued: [], stop: () => undefined },
    ])
      expect(takeEarlyWorker("/_sandbox/sandbox-worker.js", { [EARLY_WORKER_GLOBAL]: forged })).toBeUndefined();
  });

  it("a browser that cannot start the worker leaves the page to start its own", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(earlyWorkerScript("/_sandbox/sandbox-worker.js"), {
      window,
      Worker: function NoWorker() {
        throw new Error("module workers are not supported");
      },
    });
    expect(window[EARLY_WORKER_GLOBAL]).toBeUndefined();
    expect(takeEarlyWorker("/_sandbox/sandbox-worker.js", window)).toBeUndefined();
  });
});
