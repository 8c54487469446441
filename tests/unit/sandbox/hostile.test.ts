import { describe, expect, it } from "vitest";
import { errorOf, nodeEngine, run, valueOf } from "./helpers";
import type { ErrorKind, HostFunctions, SandboxLimits } from "@/lib/sandbox/types";

const engine = nodeEngine();
const host: HostFunctions = { h: { f: () => Promise.resolve(1), hang: () => new Promise(() => {}) } };
const limits = { cpuMs: 300, wallMs: 2_000, memoryBytes: 32 * 1024 * 1024 };

// Memory bombs get CPU to spare, so they meet the memory limit first even on a loaded machine.
const bomb = { cpuMs: 5_000, memoryBytes: 8 * 1024 * 1024 };

const cases: Array<[string, string, ErrorKind, RegExp?, Partial<SandboxLimits>?]> = [
  ["an infinite loop", "while (true) {}", "timeout"],
  ["an infinite loop of microtasks", "const spin = () => { Promise.resolve().then(spin) };\nspin();\nawait new Promise(() => {})", "timeout"],
  ["a promise chain that keeps growing", "const spin = () => Promise.resolve().then(spin);\nawait spin()", "memory", undefined, bomb],
  ["an array bomb", "const a = [];\nwhile (true) a.push(new Array(100000).fill(a.length));", "memory", undefined, bomb],
  ["a string doubling bomb", 'let s = "x";\nwhile (true) s += s;', "memory", undefined, bomb],
  ["a giant repeat", 'return "x".repeat(2 ** 29).length', "memory", undefined, bomb],
  ["deep recursion", "const f = (n) => f(n + 1) + 1;\nf(0)", "stack"],
  ["recursion through toJSON", "const o = { toJSON() { return [o] } };\nJSON.stringify(o)", "stack"],
  ["deeply nested JSON", 'JSON.parse("[".repeat(200000))', "stack"],
  ["a promise that never settles", "await new Promise(() => {})", "runtime", /never settle/],
  ["a host call that never settles", "await h.hang()", "timeout"],
  ["100 000 calls", "const xs = [];\nfor (let i = 0; i < 100000; i++) xs.push(h.f());\nawait Promise.all(xs)", "limit", /Too many tool calls/],
  ["a cyclic return", "const a = {};\na.a = a;\nreturn a", "serialization", /circular/],
  ["a log flood", 'while (true) console.log("flood")', "timeout"],
  ["a throwing getter in the result", 'return { get x() { throw new Error("trap") } }', "runtime", /trap/],
  ["a Proxy result", 'return new Proxy({}, { ownKeys() { throw new Error("no keys") } })', "runtime", /no keys/],
  ["reaching process through Function", 'return this.constructor.constructor("return process")()', "runtime", /ReferenceError: .process. is not defined/],
  ["calling fetch", 'await globalThis.fetch("https://example.com")', "runtime", /TypeError: not a function/],
  ["a dynamic import", 'await import("node:fs")', "runtime", /could not load module/],
  ["require", 'require("fs")', "runtime", /ReferenceError: .require. is not defined/],
];

describe("hostile code ends with a typed error, and the engine carries on", () => {
  it.each(cases)("%s", async (_name, code, kind, message, extra) => {
    const { result } = await run(engine, code, { host, limits: { ...limits, callTimeoutMs: kind === "timeout" ? 100 : 1_000, ...extra } });
    const error = errorOf(result, kind);
    if (message) expect(error.message).toMatch(message);
    expect(valueOf((await run(engine, "return [1, 2].map((x) => x * 2)")).result)).toEqual([2, 4]);
  });

  it("a log flood keeps only the log budget", async () => {
    const { result } = await run(engine, 'while (true) console.log("flood")', { limits: { cpuMs: 200, logBytes: 1000 } });
    expect(errorOf(result, "timeout").clock).toBe("cpu");
    expect(result.logs.length).toBeLessThanOrEqual(201);
    expect(result.logs.at(-1)?.text).toMatch(/log output truncated/);
  });

  it("replacing the built-ins the bridge uses does not break it", async () => {
    const code = `
      JSON.stringify = () => "garbage";
      JSON.parse = () => "garbage";
      Array.prototype.push = Array.prototype.join = () => "garbage";
      Object.keys = () => ["garbage"];
      const got = await h.f({ n: 1 });
      return { got, list: [1, 2] };`;
    const echo: HostFunctions = { h: { f: (args) => Promise.resolve(args) } };
    const { result } = await run(engine, code, { host: echo });
    expect(valueOf(result)).toEqual({ got: { n: 1 }, list: [1, 2] });
    expect(errorOf((await run(engine, 'JSON.stringify = () => "x";\nthrow new Error("still described")')).result, "runtime").message).toBe(
      "Error: still described",
    );
  });

  it("the bridge, timers and console built after the code replaced their built-ins still work", async () => {
    // These parts compile on first use (guest-parts.ts), after the code below already ran.
    const code = `
      globalThis.Map = globalThis.WeakSet = globalThis.Error = globalThis.TypeError = function () { return {}; };
      globalThis.String = () => "garbage";
      JSON.stringify = JSON.parse = () => "garbage";
      Math.max = () => -1;
      const got = await h.f({ n: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      console.log({ logged: true });
      let failure = "";
      try { await h.fail(); } catch (error) { failure = error.name + ": " + error.message; }
      return { got, failure };`;
    const hostile: HostFunctions = { h: { f: (args) => Promise.resolve(args), fail: () => Promise.reject(new Error("refused")) } };
    const { result } = await run(engine, code, { host: hostile });
    expect(valueOf(result)).toEqual({ got: { n: 1 }, failure: "ToolError: refused" });
    expect(result.logs.map((entry) => entry.text)).toEqual(['{"logged":true}']);
  });

  it("console can be replaced and read back, as in Node", async () => {
    const { result } = await run(engine, "const mine = { log: () => 'mine' };\nconsole = mine;\nreturn console === mine && console.log() === 'mine'");
    expect(valueOf(result)).toBe(true);
  });

  it("nothing one run does to the built-ins survives into the next", async () => {
    await run(engine, "Object.prototype.polluted = 1;\nArray.prototype.map = () => 'hijacked';\nglobalThis.leak = 1");
    const { result } = await run(engine, "return [({}).polluted, [1].map((x) => x), typeof leak]");
    expect(valueOf(result)).toEqual([null, [1], "undefined"]);
  });

  it("a Function built from a string runs inside the sandbox, with the sandbox's globals", async () => {
    const { result } = await run(engine, 'return Function("return Object.keys(this).sort()")()', { data: { d: 1 } });
    expect(valueOf(result)).toEqual(["d"]);
  });
});
