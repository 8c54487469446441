import { describe, expect, it } from "vitest";
import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import type { DoneMessage, MainToWorker, RefusedMessage, WorkerToMain } from "@/lib/sandbox/protocol";
import { nextMessage, portPair, unbatch } from "./ports";

const module = loadNodeModule("release");

function attached() {
  const { main, worker } = portPair();
  attachSandboxWorker(worker, () => module);
  const received: WorkerToMain[] = [];
  main.addEventListener("message", ({ data }) => received.push(...unbatch(data as WorkerToMain)));
  const refused = () => nextMessage(main, (m): m is RefusedMessage => m.type === "refused");
  const done = (runId: string) => nextMessage(main, (m): m is DoneMessage => m.type === "done" && m.runId === runId);
  return { main, received, refused, done };
}

const hostApi = { shop: ["price"] };

/** The QuickJS module, counting the runtimes made from it (the warm-up's, each run's). */
async function countingRuntimes() {
  const loaded = await module;
  const counted = { runtimes: 0, module: loaded };
  counted.module = new Proxy(loaded, {
    get: (target, key): unknown =>
      key === "newRuntime"
        ? (...args: Parameters<typeof loaded.newRuntime>) => (counted.runtimes++, target.newRuntime(...args))
        : (Reflect.get(target, key) as unknown),
  });
  return counted;
}

describe("worker protocol", () => {
  it("says ready once the module is loaded", async () => {
    const { main } = attached();
    expect(await nextMessage(main, (m) => m.type === "ready")).toEqual({ type: "ready", runId: null });
  });

  it("says ready; on warm makes a run of its own that a run sent at once waits for, once; nothing of the warm-up reaches the main thread", async () => {
    const { main, worker } = portPair();
    const counted = await countingRuntimes();
    attachSandboxWorker(worker, () => Promise.resolve(counted.module));
    const before: WorkerToMain[] = [];
    main.addEventListener("message", ({ data }) => before.push(...unbatch(data as WorkerToMain)));
    await nextMessage(main, (m) => m.type === "ready");
    expect(before).toEqual([{ type: "ready", runId: null }]);
    expect(counted.runtimes).toBe(0);
    main.postMessage({ type: "warm", runId: null });
    main.postMessage({ type: "warm", runId: null });
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price(1)" }, hostApi });
    const call = await nextMessage(main, (m) => m.type === "call");
    expect(call).toMatchObject({ runId: "r1", callId: 1, namespace: "shop", name: "price" });
    // The warm-up's runtime, then the run's.
    expect(counted.runtimes).toBe(2);
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "7" });
    expect(await nextMessage(main, (m) => m.type === "done")).toMatchObject({ runId: "r1", result: { ok: true, value: 7 } });
    expect(before.every((m) => m.type === "ready" || m.runId === "r1")).toBe(true);
    // Warm once: a later warm makes no run.
    main.postMessage({ type: "warm", runId: null });
    main.postMessage({ type: "warm", runId: "x" } as unknown as MainToWorker);
    expect(await nextMessage(main, (m) => m.type === "refused")).toMatchObject({ reason: "malformed message" });
    expect(counted.runtimes).toBe(2);
  });

  it("makes no warm-up after a real run has warmed it", async () => {
    const { main, worker } = portPair();
    const counted = await countingRuntimes();
    attachSandboxWorker(worker, () => Promise.resolve(counted.module));
    await nextMessage(main, (m) => m.type === "ready");
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 1" }, hostApi: {} });
    await nextMessage(main, (m) => m.type === "done");
    main.postMessage({ type: "warm", runId: null });
    main.postMessage({ type: "run", runId: "r2", request: { code: "return 2" }, hostApi: {} });
    expect(await nextMessage(main, (m) => m.type === "done" && m.runId === "r2")).toMatchObject({ result: { value: 2 } });
    expect(counted.runtimes).toBe(2);
  });

  it("runs a request, forwards a tool call as JSON, and answers with done", async () => {
    const { main, received, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: 'console.log("hi");\nreturn await shop.price({ sku: "A" })' }, hostApi });
    const call = await nextMessage(main, (m) => m.type === "call");
    expect(call).toEqual({ type: "call", runId: "r1", callId: 1, namespace: "shop", name: "price", argsJson: '{"sku":"A"}' });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: '{"eur":3}' });
    const result = (await done("r1")).result;
    expect(result).toMatchObject({ ok: true, value: { eur: 3 }, stats: { hostCalls: 1 } });
    const kinds = received.filter((m) => m.type === "event").map((m) => (m.type === "event" ? m.event.type : ""));
    expect(kinds).toEqual(["log", "call-start", "call-end"]);
    expect(received.every((m) => m.type === "ready" || m.runId === "r1")).toBe(true);
  });

  it("batches call traffic both ways, checking each message inside a batch on its own", async () => {
    const { main, refused, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await Promise.all([1, 2, 3].map((i) => shop.price(i)))" }, hostApi });
    const batch = await new Promise<WorkerToMain>((resolve) =>
      main.addEventListener("message", ({ data }) => (data as WorkerToMain).type === "batch" && resolve(data as WorkerToMain)),
    );
    expect(batch.type === "batch" && batch.messages.map((m) => (m.type === "call" ? `call ${m.callId}` : `event ${m.event.type}`))).toEqual([
      "event call-start",
      "call 1",
      "event call-start",
      "call 2",
      "event call-start",
      "call 3",
    ]);
    const result = (callId: number, value: number) => ({ type: "call-result" as const, runId: "r1", callId, ok: true as const, valueJson: String(value) });
    main.postMessage({ type: "batch", runId: "r1", messages: [result(1, 10), result(7, 70), result(2, 20), result(3, 30)] });
    expect(await refused()).toEqual({ type: "refused", runId: "r1", callId: 7, reason: "unknown callId 7" });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: [10, 20, 30] });
  });

  it("refuses a batch that holds anything but call-results", async () => {
    const { main, refused } = attached();
    main.postMessage({ type: "batch", runId: "r1", messages: [{ type: "run", runId: "r1", request: { code: "1" }, hostApi: {} }] } as never);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
  });

  it("refuses a call-result with an unknown runId, and the run is unaffected", async () => {
    const { main, refused, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    main.postMessage({ type: "call-result", runId: "intruder", callId: 1, ok: true, valueJson: "666" });
    expect(await refused()).toEqual({ type: "refused", runId: "intruder", callId: 1, reason: "unknown runId intruder" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "7" });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: 7 });
  });

  it("refuses a call-result for a callId the run is not waiting for, including a second answer", async () => {
    const { main, refused, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "const a = await shop.price();\nreturn a + await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call" && m.callId === 1);
    main.postMessage({ type: "call-result", runId: "r1", callId: 99, ok: true, valueJson: "1" });
    expect(await refused()).toEqual({ type: "refused", runId: "r1", callId: 99, reason: "unknown callId 99" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "1" });
    await nextMessage(main, (m) => m.type === "call" && m.callId === 2);
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "100" });
    expect(await refused()).toMatchObject({ runId: "r1", callId: 1, reason: "unknown callId 1" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 2, ok: true, valueJson: "2" });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: 3 });
  });

  it("refuses a cancel for another run", async () => {
    const { main, refused, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    main.postMessage({ type: "cancel", runId: "r0" });
    expect(await refused()).toEqual({ type: "refused", runId: "r0", reason: "unknown runId r0" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "1" });
    expect((await done("r1")).result.ok).toBe(true);
  });

  it("refuses a second run while one is going", async () => {
    const { main, refused, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    main.postMessage({ type: "run", runId: "r2", request: { code: "return 2" }, hostApi });
    expect(await refused()).toEqual({ type: "refused", runId: "r2", reason: "busy: run r1 is in progress" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "1" });
    await done("r1");
    main.postMessage({ type: "run", runId: "r2", request: { code: "return 2" }, hostApi });
    expect((await done("r2")).result).toMatchObject({ ok: true, value: 2 });
  });

  it.each([
    ["not an object", "hello"],
    ["no runId", { type: "cancel" }],
    ["an unknown type", { type: "eval", runId: "r1", code: "1" }],
    ["a run without code", { type: "run", runId: "r1", request: {}, hostApi: {} }],
    ["a call-result without ok", { type: "call-result", runId: "r1", callId: 1 }],
  ])("refuses a malformed message: %s", async (_name, data) => {
    const { main, refused } = attached();
    main.postMessage(data as never);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
  });

  it("cancels the current run while it awaits a tool call", async () => {
    const { main, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    main.postMessage({ type: "cancel", runId: "r1" });
    expect((await done("r1")).result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
  });

  it("says alive while a run waits on the host, and stops when it is done", async () => {
    const { main, received, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    expect(await nextMessage(main, (m) => m.type === "alive")).toEqual({ type: "alive", runId: "r1" });
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: true, valueJson: "1" });
    await done("r1");
    const count = received.filter((m) => m.type === "alive").length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(received.filter((m) => m.type === "alive")).toHaveLength(count);
  });

  it("turns a host error answer into a tool error", async () => {
    const { main, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return await shop.price()" }, hostApi });
    await nextMessage(main, (m) => m.type === "call");
    main.postMessage({ type: "call-result", runId: "r1", callId: 1, ok: false, error: "out of stock" });
    expect((await done("r1")).result).toMatchObject({ ok: false, error: { kind: "tool", message: "shop.price: out of stock" } });
  });

  it("answers invalid limits with an error result instead of dying", async () => {
    const { main, done } = attached();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 1", limits: { cpuMs: -1 } }, hostApi });
    expect((await done("r1")).result).toMatchObject({ ok: false, error: { kind: "runtime", message: expect.stringMatching(/cpuMs/) as string } });
  });
});
