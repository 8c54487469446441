import { describe, expect, it, vi } from "vitest";
import { RunController, type WorkerLike } from "@/lib/sandbox/run-controller";
import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import { SandboxConfigError } from "@/lib/sandbox/errors";
import type { MainToWorker } from "@/lib/sandbox/protocol";
import type { HostFunctions, RunEvent } from "@/lib/sandbox/types";
import { deferred } from "./helpers";
import { MemoryPort, portPair, workerOver } from "./ports";

const module = loadNodeModule("release");

/** A worker that really runs code: attachSandboxWorker over an in-memory port pair. */
function liveWorker(): WorkerLike & { terminated: boolean } {
  const { main, worker } = portPair();
  attachSandboxWorker(worker, () => module);
  return workerOver(main, () => worker.close());
}

/** A worker stuck in guest code: it loaded its module, then never reads or says anything again. */
function stuckWorker(): WorkerLike & { terminated: boolean; received: MainToWorker[] } {
  const main = new MemoryPort<MainToWorker>();
  const inbox = new MemoryPort<never>();
  main.other = inbox;
  inbox.other = main;
  setImmediate(() => (inbox as unknown as MemoryPort<{ type: "ready"; runId: null }>).postMessage({ type: "ready", runId: null }));
  return Object.assign(workerOver(main), { received: main.sent });
}

describe("RunController", () => {
  it("runs code, answers tool calls with the host functions, and forwards events", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    const seen: Array<{ args: unknown; callId: number }> = [];
    const host: HostFunctions = {
      shop: {
        price: (args, _signal, call) => {
          seen.push({ args, callId: call.callId });
          return Promise.resolve({ eur: 3 });
        },
      },
    };
    const events: RunEvent[] = [];
    const handle = controller.run({ code: 'console.log("go");\nreturn await shop.price({ sku: "A" })' }, host, (e) => events.push(e));
    expect(handle.runId).toMatch(/^run-/);
    const result = await handle.result;
    expect(result).toMatchObject({ ok: true, value: { eur: 3 }, stats: { hostCalls: 1, peakInFlight: 1 } });
    expect(seen).toEqual([{ args: { sku: "A" }, callId: 1 }]);
    expect(events.map((e) => e.type)).toEqual(["log", "call-start", "call-end"]);
    controller.dispose();
  });

  it("warms up: resolves once the worker has loaded QuickJS", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    await expect(controller.warmUp()).resolves.toBeUndefined();
    controller.dispose();
  });

  it("asks a ready worker to warm up: at once, or when the page says it is idle", async () => {
    const immediate = stuckWorker();
    const now = new RunController({ createWorker: () => immediate });
    await now.warmUp();
    expect(immediate.received).toEqual([{ type: "warm", runId: null }]);
    now.dispose();

    const later = stuckWorker();
    let idle: (() => void) | undefined;
    const deferredWarm = new RunController({ createWorker: () => later, whenIdle: (warm) => (idle = warm) });
    await deferredWarm.warmUp();
    expect(later.received).toEqual([]);
    idle?.();
    expect(later.received).toEqual([{ type: "warm", runId: null }]);
    deferredWarm.dispose();
  });

  it("reports a host function's failure as a tool error", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    const host: HostFunctions = { shop: { price: () => Promise.reject(new Error("sold out")) } };
    const result = await controller.run({ code: "return await shop.price()" }, host).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "tool", message: "shop.price: sold out", call: { callId: 1 } } });
    controller.dispose();
  });

  it("runs one request at a time: a second run waits for the first", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    const gate = deferred<number>();
    const order: string[] = [];
    const host: HostFunctions = {
      h: {
        wait: () => {
          order.push("first calls");
          return gate.promise;
        },
        now: () => {
          order.push("second calls");
          return Promise.resolve(2);
        },
      },
    };
    const first = controller.run({ code: "return await h.wait()" }, host);
    const second = controller.run({ code: "return await h.now()" }, host);
    await vi.waitFor(() => expect(order).toEqual(["first calls"]));
    gate.resolve(1);
    expect(await first.result).toMatchObject({ ok: true, value: 1 });
    expect(await second.result).toMatchObject({ ok: true, value: 2 });
    expect(order).toEqual(["first calls", "second calls"]);
    controller.dispose();
  });

  it("holds a run (and the queue behind it) until `after` settles, then runs it", async () => {
    const worker = stuckWorker();
    const controller = new RunController({ createWorker: () => worker });
    const gate = deferred<void>();
    const held = controller.run({ code: "return 1" }, {}, undefined, { after: gate.promise });
    const behind = controller.run({ code: "return 2" });
    await new Promise((resolve) => setImmediate(resolve));
    const runsSent = () => worker.received.flatMap((m) => (m.type === "run" ? [m.runId] : []));
    expect(runsSent()).toEqual([]);
    gate.resolve();
    await vi.waitFor(() => expect(runsSent()).toEqual([held.runId]));
    expect(runsSent()).not.toContain(behind.runId);
    controller.dispose();
    const live = new RunController({ createWorker: liveWorker });
    expect(await live.run({ code: "return 3" }, {}, undefined, { after: Promise.resolve() }).result).toMatchObject({ ok: true, value: 3 });
    live.dispose();
  });

  it("a held run cancelled before `after` settles ends as cancelled and never reaches the worker", async () => {
    const worker = stuckWorker();
    const controller = new RunController({ createWorker: () => worker });
    const gate = deferred<void>();
    const held = controller.run({ code: "return 1" }, {}, undefined, { after: gate.promise });
    held.cancel();
    expect(await held.result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    gate.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(worker.received.filter((m) => m.type === "run")).toEqual([]);
    controller.dispose();
  });

  it("cancels a queued run without running it", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    const gate = deferred<number>();
    const called = vi.fn(() => Promise.resolve(1));
    const first = controller.run({ code: "return await h.wait()" }, { h: { wait: () => gate.promise } });
    const second = controller.run({ code: "return await h.f()" }, { h: { f: called } });
    second.cancel();
    expect(await second.result).toMatchObject({ ok: false, error: { kind: "cancelled" }, stats: { hostCalls: 0 } });
    gate.resolve(1);
    expect((await first.result).ok).toBe(true);
    expect(called).not.toHaveBeenCalled();
    controller.dispose();
  });

  it("cancels a run while it awaits a host call, and aborts that call", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    const started = deferred<AbortSignal>();
    const host: HostFunctions = {
      h: {
        hang: (_args, signal) => {
          started.resolve(signal);
          return new Promise(() => {});
        },
      },
    };
    const handle = controller.run({ code: "return await h.hang()" }, host);
    const signal = await started.promise;
    handle.cancel();
    expect(await handle.result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(signal.aborted).toBe(true);
    controller.dispose();
  });

  it("terminates a worker that ignores cancel, and the next run gets a fresh worker", async () => {
    const workers: Array<WorkerLike & { terminated: boolean }> = [];
    const createWorker = () => {
      const worker = workers.length === 0 ? stuckWorker() : liveWorker();
      workers.push(worker);
      return worker;
    };
    const controller = new RunController({ createWorker, hardStopGraceMs: 50 });
    const handle = controller.run({ code: "while (true) {}", limits: { cpuMs: 60_000 } });
    await controller.warmUp();
    handle.cancel();
    const result = await handle.result;
    expect(result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(workers[0]?.terminated).toBe(true);
    expect(await controller.run({ code: "return 'fresh'" }).result).toMatchObject({ ok: true, value: "fresh" });
    expect(workers).toHaveLength(2);
    controller.dispose();
  });

  it("terminates a worker that runs past its wall deadline", async () => {
    const workers: Array<WorkerLike & { terminated: boolean }> = [];
    const controller = new RunController({
      createWorker: () => {
        const worker = workers.length === 0 ? stuckWorker() : liveWorker();
        workers.push(worker);
        return worker;
      },
      hardStopGraceMs: 50,
    });
    const result = await controller.run({ code: "while (true) {}", limits: { wallMs: 100, cpuMs: 60_000 } }).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "timeout", clock: "wall" } });
    expect(workers[0]?.terminated).toBe(true);
    expect(await controller.run({ code: "return 1" }).result).toMatchObject({ ok: true, value: 1 });
    controller.dispose();
  });

  it("terminates a silent worker once it has been quiet longer than the CPU budget", async () => {
    const workers: Array<WorkerLike & { terminated: boolean }> = [];
    const controller = new RunController({
      createWorker: () => {
        const worker = stuckWorker();
        workers.push(worker);
        return worker;
      },
      hardStopGraceMs: 100,
    });
    const result = await controller.run({ code: "while (true) {}", limits: { cpuMs: 200, wallMs: 60_000 } }).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "timeout", clock: "cpu" } });
    expect(workers[0]?.terminated).toBe(true);
    controller.dispose();
  });

  it("ends a run the worker refuses", async () => {
    const main = new MemoryPort<MainToWorker>();
    const worker = new MemoryPort<unknown>();
    main.other = worker;
    worker.other = main;
    worker.addEventListener("message", ({ data }) => {
      const message = data as MainToWorker;
      if (message.type === "run") worker.postMessage({ type: "refused", runId: message.runId, reason: "busy: run x is in progress" });
    });
    const controller = new RunController({ createWorker: () => workerOver(main) });
    const result = await controller.run({ code: "return 1" }).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "runtime", message: "The sandbox worker refused the run: busy: run x is in progress" } });
    controller.dispose();
  });

  it("throws at once for invalid limits, and after dispose", async () => {
    const controller = new RunController({ createWorker: liveWorker });
    expect(() => controller.run({ code: "1", limits: { wallMs: 0 } })).toThrow(SandboxConfigError);
    const pending = controller.run({ code: "await new Promise((r) => setTimeout(r, 1000))" });
    controller.dispose();
    expect(await pending.result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(() => controller.run({ code: "1" })).toThrow(/disposed/);
    await expect(controller.warmUp()).rejects.toThrow(/disposed/);
  });

  it("ignores messages for runs that are over", async () => {
    const { main, worker } = portPair();
    attachSandboxWorker(worker, () => module);
    const controller = new RunController({ createWorker: () => workerOver(main) });
    expect(await controller.run({ code: "return 1" }).result).toMatchObject({ ok: true, value: 1 });
    // A stale done for an old run must not settle the next one.
    const next = controller.run({ code: "await new Promise((r) => setTimeout(r, 50));\nreturn 2" });
    (worker as MemoryPort<unknown>).postMessage({
      type: "done",
      runId: "run-stale-1",
      result: { ok: true, value: "stale", logs: [], stats: { wallMs: 0, hostCalls: 0, peakInFlight: 0 } },
    });
    expect(await next.result).toMatchObject({ ok: true, value: 2 });
    controller.dispose();
  });
});
