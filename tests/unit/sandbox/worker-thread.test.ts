import { afterEach, describe, expect, it } from "vitest";
import { RunController } from "@/lib/sandbox/run-controller";
import { threadWorker } from "@/lib/sandbox/node/thread-worker";

const controllers: RunController[] = [];
afterEach(() => controllers.splice(0).forEach((c) => c.dispose()));

function controller(graceMs: number) {
  const threads: Array<ReturnType<typeof threadWorker>> = [];
  const c = new RunController({
    createWorker: () => {
      const worker = threadWorker();
      threads.push(worker);
      return worker;
    },
    hardStopGraceMs: graceMs,
  });
  controllers.push(c);
  return { c, threads };
}

describe("sandbox in a real worker thread", () => {
  it("runs code and tool calls across the thread boundary", async () => {
    const { c } = controller(1_000);
    const result = await c.run({ code: "return await math.add({ a: 2, b: 3 })" }, { math: { add: (args) => Promise.resolve((args as { a: number }).a + 3) } })
      .result;
    expect(result).toMatchObject({ ok: true, value: 5 });
  });

  it("cancel stops a synchronous infinite loop by terminating the thread; the next run works", async () => {
    const { c, threads } = controller(200);
    await c.warmUp();
    const handle = c.run({ code: "let i = 0;\nwhile (true) { i++; }", limits: { cpuMs: 60_000 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    handle.cancel();
    const result = await handle.result;
    expect(result).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    await threads[0]?.exited;
    expect(await c.run({ code: 'return "again"' }).result).toMatchObject({ ok: true, value: "again" });
    expect(threads).toHaveLength(2);
  });

  it("the watchdog ends a loop of long builtins that QuickJS's interrupt handler misses", async () => {
    const { c } = controller(300);
    await c.warmUp();
    const code = 'const s = "x".repeat(200000);\nwhile (true) s.split("");';
    const result = await c.run({ code, limits: { cpuMs: 300 } }).result;
    expect(result).toMatchObject({ ok: false, error: { kind: "timeout", clock: "cpu" } });
  });
});
