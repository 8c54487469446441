import { describe, expect, it } from "vitest";
import { TestQuickJSWASMModule } from "quickjs-emscripten-core";
import { createEngine } from "@/lib/sandbox/engine";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions } from "@/lib/sandbox/types";
import { errorOf, nodeEngine, run, valueOf } from "./helpers";

const host: HostFunctions = {
  h: {
    f: (args) => Promise.resolve(args),
    fail: () => Promise.reject(new Error("no")),
    hang: () => new Promise(() => {}),
  },
};

// Every path a run can end on, so a handle left undisposed on any of them shows up.
const PROGRAMS: string[] = [
  "return 1",
  "return { a: [1, 2, { b: 'c' }] }",
  'console.log("x", { y: 1 }); return null',
  "return await Promise.all([h.f(1), h.f({ two: 2 }), h.f()])",
  "try { await h.fail() } catch (e) { return e.message }",
  "await h.fail()",
  "await h.hang()",
  "await new Promise((r) => setTimeout(r, 1)); return 'timer'",
  "setTimeout(() => {}, 100000); return 'left a timer'",
  "h.f(1); return 'left a call'",
  "throw new TypeError('bad')",
  "const a = {}; a.a = a; return a",
  "return 10n",
  "const b = ;",
  "while (true) {}",
  "await new Promise(() => {})",
  "for (let i = 0; i < 5; i++) await h.f(i); return 'budget'",
];

describe("nothing leaks", () => {
  // The debug build's allocator cannot fail a malloc cleanly (it aborts), so no memory limit is hit here.
  it("the debug build's leak sanitizer finds no un-freed memory after runs that end every way", { timeout: 60_000 }, async () => {
    const module = new TestQuickJSWASMModule(await loadNodeModule("debug"));
    const engine = createEngine(() => Promise.resolve(module));
    const limits = { cpuMs: 30, wallMs: 1_000, callTimeoutMs: 30, memoryBytes: 256 * 1024 * 1024, maxCalls: 3 };
    for (let i = 0; i < 3; i++) {
      for (const code of PROGRAMS) expect((await run(engine, code, { host, limits })).result.stats.wallMs).toBeGreaterThanOrEqual(0);
    }
    expect([...module.runtimes].filter((runtime) => runtime.alive)).toEqual([]);
    expect(module.getFFI().QTS_RecoverableLeakCheck()).toBe(0);
  });

  it("the module's memory stays at its baseline over hundreds of runs", async () => {
    const module = await loadNodeModule("release");
    const engine = createEngine(() => Promise.resolve(module));
    const limits = { cpuMs: 30, callTimeoutMs: 30, memoryBytes: 8 * 1024 * 1024 };
    for (const code of PROGRAMS) await run(engine, code, { host, limits });
    const baseline = module.getWasmMemory().buffer.byteLength;
    for (let i = 0; i < 25; i++) for (const code of PROGRAMS) await run(engine, code, { host, limits });
    expect(module.getWasmMemory().buffer.byteLength).toBe(baseline);
  });

  it("memory bombs one after another never let the module's memory pass the reload line for long", async () => {
    const modules: Array<Awaited<ReturnType<typeof loadNodeModule>>> = [];
    const engine = createEngine(async () => {
      const module = await loadNodeModule("release");
      modules.push(module);
      return module;
    });
    const bomb = "const keep = [];\nwhile (true) keep.push(new Uint8Array(1 << 20));";
    const memoryBytes = 16 * 1024 * 1024;
    for (let i = 0; i < 20; i++) {
      errorOf((await run(engine, bomb, { limits: { memoryBytes, cpuMs: 5_000 } })).result, "memory");
      // A run may use what earlier runs left free plus its own limit; past the line, the module is replaced.
      expect(modules.at(-1)?.getWasmMemory().buffer.byteLength).toBeLessThanOrEqual(64 * 1024 * 1024 + 2 * memoryBytes);
    }
    expect(modules.length).toBeGreaterThan(1);
  });
});

describe("WASM memory", () => {
  it("survives growing while jobs run (quickjs-emscripten#240 worked around)", async () => {
    let loads = 0;
    const engine = createEngine(() => {
      loads++;
      return loadNodeModule("release");
    });
    const code = "await null;\nconst big = new Uint8Array(32 * 1024 * 1024);\nawait null;\nreturn big.length";
    expect(valueOf((await run(engine, code, { limits: { memoryBytes: 64 * 1024 * 1024, cpuMs: 5_000 } })).result)).toBe(32 * 1024 * 1024);
    expect(valueOf((await run(engine, "return await Promise.all([1, 2].map(async (x) => x))")).result)).toEqual([1, 2]);
    // Without the fix the first run's disposal fails, and the engine has to load a new module.
    expect(loads).toBe(1);
  });

  it("a run that grew the module's memory hands it back: the next run gets a fresh module", async () => {
    const modules: Array<Awaited<ReturnType<typeof loadNodeModule>>> = [];
    const engine = createEngine(async () => {
      const module = await loadNodeModule("release");
      modules.push(module);
      return module;
    });
    const code = "const keep = [];\nfor (let i = 0; i < 90; i++) keep.push(new Uint8Array(1 << 20));\nreturn keep.length";
    expect(valueOf((await run(engine, code, { limits: { memoryBytes: 128 * 1024 * 1024, cpuMs: 5_000 } })).result)).toBe(90);
    expect(valueOf((await run(engine, "return 1")).result)).toBe(1);
    expect(modules).toHaveLength(2);
    expect(modules[1]?.getWasmMemory().buffer.byteLength).toBeLessThan(64 * 1024 * 1024);
  });

  // The CPU and wall limits only guard against a hang: on a loaded machine, growing to the
  // 512 MB ceiling can take longer than a few seconds, and the test is about memory.
  it("a run cannot take more than the module cap, whatever its limit says", async () => {
    const engine = nodeEngine();
    const code = "const keep = [];\nwhile (true) keep.push(new Uint8Array(8 << 20));";
    const { result } = await run(engine, code, { limits: { memoryBytes: 4 * 1024 * 1024 * 1024, cpuMs: 30_000, wallMs: 60_000 } });
    expect(errorOf(result, "memory").message).toMatch(/ceiling/);
    expect(valueOf((await run(engine, "return 'still here'")).result)).toBe("still here");
  });
});
