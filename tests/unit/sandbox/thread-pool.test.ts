/** The pool of sandbox worker threads the code-mode MCP server runs programs on (real threads, real QuickJS). */
import { afterEach, describe, expect, it } from "vitest";
import { createThreadPool, type ThreadPool } from "@/lib/sandbox/node/thread-pool";

const pools: ThreadPool[] = [];
afterEach(() => pools.splice(0).forEach((p) => p.close()));
function pool(size: number, queueLimit: number, maxWaitMs?: number): ThreadPool {
  const p = createThreadPool({ size, queueLimit, ...(maxWaitMs ? { maxWaitMs } : {}) });
  pools.push(p);
  return p;
}
const sleepHost = { t: { sleep: (args: unknown) => new Promise((resolve) => setTimeout(() => resolve(args), (args as { ms: number }).ms)) } };

describe("sandbox thread pool", () => {
  it("runs on `size` threads at once, queues the rest, and says busy beyond the queue", async () => {
    const p = pool(2, 2);
    let inFlight = 0;
    let peak = 0;
    const runs = [0, 1, 2, 3, 4].map((n) =>
      p.run({
        request: { code: `await t.sleep({ ms: 150 }); return ${n};` },
        host: sleepHost,
        onEvent: (e) => {
          if (e.type === "call-start") peak = Math.max(peak, ++inFlight);
          if (e.type === "call-end") inFlight--;
        },
      }),
    );
    expect(p.stats()).toMatchObject({ running: 2, queued: 2 });
    const results = await Promise.all(runs);
    expect(results.slice(0, 4).map((r) => (r.ok ? r.value : r.error.kind))).toEqual([0, 1, 2, 3]);
    expect(results[4]).toMatchObject({ ok: false, error: { kind: "busy" } });
    // Never more than `size` at once (which runs overlap depends on how fast each thread starts).
    expect(peak).toBeLessThanOrEqual(2);
    expect(p.stats()).toMatchObject({ running: 0, queued: 0 });
  }, 30_000);

  it("starts queued runs in the order they came", async () => {
    const p = pool(1, 3);
    const started: number[] = [];
    const runs = [0, 1, 2, 3].map((n) =>
      p.run({ request: { code: `await t.sleep({ ms: 20 }); return ${n};` }, host: sleepHost, onEvent: (e) => e.type === "call-start" && started.push(n) }),
    );
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
  }, 30_000);

  it("each run gets a fresh context: nothing a program leaves behind reaches the next", async () => {
    const p = pool(1, 4);
    await p.run({ request: { code: "globalThis.leak = 'secret'; return 1;" }, host: {} });
    expect(await p.run({ request: { code: "return typeof leak;" }, host: {} })).toMatchObject({ ok: true, value: "undefined" });
  }, 30_000);

  it("a spinning program hits its CPU limit and the thread goes on serving; a queued run cancelled by its signal never starts", async () => {
    const p = pool(1, 4);
    const spin = p.run({ request: { code: "while (true) {}", limits: { cpuMs: 200 } }, host: {} });
    const stop = new AbortController();
    const queued = p.run({ request: { code: "return 'should not run'" }, host: {}, signal: stop.signal });
    stop.abort();
    expect(await queued).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(await spin).toMatchObject({ ok: false, error: { kind: "timeout", clock: "cpu" } });
    expect(await p.run({ request: { code: "return 'after'" }, host: {} })).toMatchObject({ ok: true, value: "after" });
  }, 30_000);

  it("a running program is cancelled by its signal", async () => {
    const p = pool(1, 0);
    const stop = new AbortController();
    const running = p.run({ request: { code: "await t.sleep({ ms: 5000 }); return 1;" }, host: sleepHost, signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    expect(await running).toMatchObject({ ok: false, error: { kind: "cancelled" } });
  }, 30_000);

  it("100 spinning programs cannot starve 100 normal ones: a free thread goes to the client, and the program, that used the sandbox least", async () => {
    const p = pool(2, 400);
    const done: string[] = [];
    const stop = new AbortController();
    const SPIN = { code: "while (true) {}", limits: { cpuMs: 300 } };
    // One client floods the pool with spinners first; a second sends normal programs after them,
    // and the flooding client also sends normal programs of its own behind its spinners.
    const spinners = Array.from({ length: 100 }, () =>
      p.run({ request: SPIN, host: {}, client: "flood", signal: stop.signal }).then((r) => (done.push("spin"), r)),
    );
    const normal = Array.from({ length: 100 }, (_, i) =>
      p.run({ request: { code: `return ${i};` }, host: {}, client: i % 2 === 0 ? "other" : "flood" }).then((r) => (done.push("normal"), r)),
    );
    const results = await Promise.all(normal);
    expect(results.every((r) => r.ok)).toBe(true);
    // The bound: a normal program waits at most for the spinners already running (one CPU limit
    // each, on `size` threads: 2 here, measured) and the normal programs ahead of it; never
    // behind the spinners' backlog (in FIFO order all 100 would finish first).
    const spinsBeforeLastNormal = done.lastIndexOf("normal") - 99;
    expect(spinsBeforeLastNormal).toBeLessThanOrEqual(4);
    stop.abort();
    await Promise.all(spinners);
  }, 60_000);

  it("a run never waits longer than maxWaitMs: it gets a busy result that says how long it waited", async () => {
    const p = pool(1, 4, 200);
    const spin = p.run({ request: { code: "while (true) {}", limits: { cpuMs: 1_000 } }, host: {} });
    const waiting = await p.run({ request: { code: "return 1;" }, host: {} });
    expect(waiting).toMatchObject({
      ok: false,
      error: { kind: "busy", message: expect.stringMatching(/^Busy: waited 200 ms for a sandbox while 1 program is running/) as unknown },
    });
    expect(p.stats().queued).toBe(0);
    await spin;
  }, 30_000);
});
