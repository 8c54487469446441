import { afterEach, describe, expect, it } from "vitest";
import { RunController, type WorkerLike } from "@/lib/sandbox/run-controller";
import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import { withApprovals } from "@/lib/host-calls/approvals";
import type { ClockMessage, MainToWorker } from "@/lib/sandbox/protocol";
import type { HostCallInfo, HostFunction, HostFunctions, RunEvent } from "@/lib/sandbox/types";
import { portPair, workerOver } from "./ports";
import { threadWorker } from "@/lib/sandbox/node/thread-worker";

const module = loadNodeModule("release");

// The controller's hard stop falls at wallMs + grace = 450 ms; every wait below is twice that.
const LIMITS = { wallMs: 400, callTimeoutMs: 300, cpuMs: 500 };
const GRACE_MS = 50;
const WAIT_MS = 900;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker that really runs code over an in-memory port pair; `sent` is what the main side posted. */
function liveWorker(): WorkerLike & { sent: MainToWorker[] } {
  const { main, worker } = portPair();
  attachSandboxWorker(worker, () => module);
  return Object.assign(
    workerOver(main, () => worker.close()),
    { sent: main.sent },
  );
}

function suspendOf(call: HostCallInfo): () => () => void {
  if (!call.suspendClock) throw new Error("the run controller gave no suspendClock");
  return call.suspendClock;
}

function waiting(ms: number, suspend: boolean): HostFunction {
  return async (args, _signal, call) => {
    const resume = suspend ? suspendOf(call)() : undefined;
    await sleep(ms);
    resume?.();
    return args;
  };
}

const controllers: RunController[] = [];
afterEach(() => controllers.splice(0).forEach((c) => c.dispose()));

function controllerOver(createWorker: () => WorkerLike): RunController {
  const controller = new RunController({ createWorker, hardStopGraceMs: GRACE_MS });
  controllers.push(controller);
  return controller;
}

describe("suspending the clock through the RunController", () => {
  it("a suspended call outlives wallMs, callTimeoutMs and the controller's hard stop", async () => {
    const workers: Array<ReturnType<typeof liveWorker>> = [];
    const controller = controllerOver(() => {
      const worker = liveWorker();
      workers.push(worker);
      return worker;
    });
    const events: RunEvent[] = [];
    const handle = controller.run({ code: "return await person.decide('yes')", limits: LIMITS }, { person: { decide: waiting(WAIT_MS, true) } }, (e) =>
      events.push(e),
    );
    const result = await handle.result;
    expect(result).toMatchObject({ ok: true, value: "yes" });
    expect(result.stats.wallMs).toBeGreaterThanOrEqual(WAIT_MS - 10);
    const times = events.flatMap((e) => (e.type === "log" ? [] : [e.time]));
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(WAIT_MS - 10);
    expect(workers).toHaveLength(1);
    const clocks = workers[0]?.sent.filter((m): m is ClockMessage => m.type === "clock");
    expect(clocks?.map((m) => [m.callId, m.paused])).toEqual([
      [1, true],
      [1, false],
    ]);
  });

  it("without suspending, the worker times the call out", async () => {
    const controller = controllerOver(liveWorker);
    const result = await controller.run({ code: "return await person.decide('yes')", limits: LIMITS }, { person: { decide: waiting(WAIT_MS, false) } }).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "timeout", clock: "call" } });
  });

  it("sends one pause and one resume per call however many suspensions it holds, and counts across calls", async () => {
    const workers: Array<ReturnType<typeof liveWorker>> = [];
    const controller = controllerOver(() => {
      const worker = liveWorker();
      workers.push(worker);
      return worker;
    });
    const host: HostFunctions = {
      person: {
        decide: waiting(WAIT_MS, true),
        glance: async (_args, _signal, call) => {
          const first = suspendOf(call)();
          const second = suspendOf(call)();
          await sleep(20);
          first();
          first();
          second();
          // This call's clock runs again; the other call still holds the run's, so no hard stop.
          return "glanced";
        },
      },
    };
    const result = await controller.run({ code: "return await Promise.all([person.decide('long'), person.glance()])", limits: LIMITS }, host).result;
    expect(result).toMatchObject({ ok: true, value: ["long", "glanced"] });
    const clocks = workers[0]?.sent.filter((m): m is ClockMessage => m.type === "clock");
    expect(clocks?.map((m) => [m.callId, m.paused])).toEqual([
      [1, true],
      [2, true],
      [2, false],
      [1, false],
    ]);
  });

  it("the approval gate keeps a run alive while the person decides, across a real worker thread", async () => {
    const controller = controllerOver(threadWorker);
    // The controller's deadline starts before the thread has loaded tsx and QuickJS: load first.
    await controller.warmUp();
    const host = withApprovals(
      { db: { wipe: (args) => Promise.resolve({ wiped: args }) } },
      { needsApproval: () => true, request: () => sleep(WAIT_MS).then(() => "approve" as const) },
    );
    const events: RunEvent[] = [];
    const result = await controller.run({ code: "const n = 7;\nreturn await db.wipe(n)", limits: LIMITS }, host, (e) => events.push(e)).result;
    expect(result).toMatchObject({ ok: true, value: { wiped: 7 } });
    expect(events.find((e) => e.type === "call-start")).toMatchObject({ callId: 1, line: 2 });
  });
});
