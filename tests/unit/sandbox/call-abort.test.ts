import { afterEach, describe, expect, it } from "vitest";
import { RunController, type WorkerLike } from "@/lib/sandbox/run-controller";
import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import type { CallAbortMessage, DoneMessage, RefusedMessage, WorkerToMain } from "@/lib/sandbox/protocol";
import type { HostFunctions } from "@/lib/sandbox/types";
import { deferred } from "./helpers";
import { nextMessage, portPair, unbatch, workerOver } from "./ports";

const module = loadNodeModule("release");

function liveWorker(): WorkerLike {
  const { main, worker } = portPair();
  attachSandboxWorker(worker, () => module);
  return workerOver(main, () => worker.close());
}

const controllers: RunController[] = [];
afterEach(() => controllers.splice(0).forEach((c) => c.dispose()));

function controller(): RunController {
  const c = new RunController({ createWorker: liveWorker });
  controllers.push(c);
  return c;
}

describe("call-abort: the worker's give-up reaches the host function", () => {
  it("aborts a host function's signal when its call times out, while the run goes on", async () => {
    let slow: AbortSignal | undefined;
    const host: HostFunctions = {
      h: {
        slow: (_args, signal) => {
          slow = signal;
          return new Promise(() => {});
        },
        // Answered on the main thread after the worker's call-abort (same port, in order).
        check: () => Promise.resolve({ aborted: slow?.aborted, reason: (slow?.reason as Error | undefined)?.message }),
      },
    };
    const code = "try { await h.slow() } catch (e) { console.log(e.message) }\nreturn await h.check()";
    const result = await controller().run({ code, limits: { callTimeoutMs: 100 } }, host).result;
    expect(result).toMatchObject({ ok: true, value: { aborted: true, reason: "timed out after 100 ms" } });
    expect(result.logs.map((l) => l.text)).toEqual(["timed out after 100 ms"]);
  });

  it("aborts calls still in flight when the run ends, with the worker's reason", async () => {
    const started = deferred<AbortSignal>();
    const host: HostFunctions = {
      h: {
        hang: (_args, signal) => {
          started.resolve(signal);
          return new Promise(() => {});
        },
      },
    };
    const result = await controller().run({ code: "h.hang();\nawait null;\nreturn 'left it'" }, host).result;
    expect(result).toMatchObject({ ok: true, value: "left it" });
    const signal = await started.promise;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("the run ended");
  });
});

describe("worker protocol: call-abort and clock", () => {
  function attached() {
    const { main, worker } = portPair();
    attachSandboxWorker(worker, () => module);
    const received: WorkerToMain[] = [];
    main.addEventListener("message", ({ data }) => received.push(...unbatch(data as WorkerToMain)));
    const done = (runId: string) => nextMessage(main, (m): m is DoneMessage => m.type === "done" && m.runId === runId);
    return { main, received, done };
  }
  const hostApi = { h: ["f"] };

  it("says call-abort for a timed-out call, and not for a call the main thread answered", async () => {
    const { main, received, done } = attached();
    const code = "const a = h.f(1).catch((e) => e.message);\nconst b = h.f(2).catch((e) => e.message);\nreturn await Promise.all([a, b])";
    main.postMessage({ type: "run", runId: "r1", request: { code, limits: { callTimeoutMs: 100 } }, hostApi });
    await nextMessage(main, (m) => m.type === "call" && m.callId === 2);
    main.postMessage({ type: "call-result", runId: "r1", callId: 2, ok: false, error: "no" });
    const aborted = await nextMessage(main, (m): m is CallAbortMessage => m.type === "call-abort");
    expect(aborted).toEqual({ type: "call-abort", runId: "r1", callId: 1, reason: "timed out after 100 ms" });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: ["timed out after 100 ms", "no"] });
    expect(received.filter((m) => m.type === "call-abort")).toHaveLength(1);
  });

  it("a clock pause stops the call's timeout until resumed; unknown calls are refused", async () => {
    const { main, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await h.f()", limits: { callTimeoutMs: 100, wallMs: 150 } }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    main.postMessage({ type: "clock", runId: "r1", callId: 1, paused: true });
    main.postMessage({ type: "clock", runId: "r1", callId: 9, paused: true });
    expect(await nextMessage(main, (m): m is RefusedMessage => m.type === "refused")).toEqual({
      type: "refused",
      runId: "r1",
      callId: 9,
      reason: "unknown callId 9",
    });
    // Twice the call timeout and more than the wall clock pass; the call is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 250));
    main.postMessage({ type: "clock", runId: "r1", callId: 1, paused: false });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: '"late"' });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: "late" });
    main.postMessage({ type: "clock", runId: "r1", callId: 1, paused: true });
    expect(await nextMessage(main, (m): m is RefusedMessage => m.type === "refused")).toMatchObject({ runId: "r1", callId: 1, reason: "unknown runId r1" });
  });

  it("refuses a malformed clock message", async () => {
    const { main } = attached();
    main.postMessage({ type: "clock", runId: "r1", callId: 1, paused: "yes" } as never);
    expect(await nextMessage(main, (m): m is RefusedMessage => m.type === "refused")).toEqual({ type: "refused", runId: null, reason: "malformed message" });
  });
});
