import { describe, expect, it } from "vitest";
import { errorOf, nodeEngine, run, valueOf } from "./helpers";

const engine = nodeEngine();

describe("engine: values", () => {
  it.each([
    ["return 1", 1],
    ["1 + 2", 3],
    ["async () => { return 5 }", 5],
    ["```ts\nconst x: number = 4;\nx * 2\n```", 8],
    ['return "text"', "text"],
    ["return true", true],
    ["return null", null],
    ["return [1, { a: [2] }]", [1, { a: [2] }]],
    ["return new Date(0)", "1970-01-01T00:00:00.000Z"],
    ["return { a: undefined, b: 1 }", { b: 1 }],
  ])("%s returns %j", async (code, expected) => {
    expect(valueOf((await run(engine, code)).result)).toEqual(expected);
  });

  it("returns null for undefined, NaN and Infinity, as JSON would", async () => {
    expect(valueOf((await run(engine, "console.log(1)")).result)).toBeNull();
    expect(valueOf((await run(engine, "return NaN")).result)).toBeNull();
    expect(valueOf((await run(engine, "return -Infinity")).result)).toBeNull();
  });

  it("reports stats on every result", async () => {
    const { result } = await run(engine, "return 1");
    expect(result.stats).toEqual({ wallMs: expect.any(Number) as number, hostCalls: 0, peakInFlight: 0 });
  });
});

describe("engine: console", () => {
  it("captures each level with its time, in order", async () => {
    const { result, events } = await run(engine, 'console.log("a"); console.info("b"); console.warn("c"); console.error("d"); console.debug("e")');
    expect(valueOf(result)).toBeNull();
    expect(result.logs.map((l) => [l.level, l.text])).toEqual([
      ["log", "a"],
      ["info", "b"],
      ["warn", "c"],
      ["error", "d"],
      ["debug", "e"],
    ]);
    for (const entry of result.logs) expect(entry.time).toBeGreaterThanOrEqual(0);
    expect(events.filter((e) => e.type === "log").map((e) => e.entry)).toEqual(result.logs);
  });

  it("formats objects as JSON and other values as readable markers", async () => {
    const code = `
      const cyclic = { name: "c" }; cyclic.self = cyclic;
      console.log("obj", { a: 1, b: [1, "x"], c: { d: null } });
      console.log(cyclic);
      console.log(undefined, 10n, Symbol("s"), function named() {}, new Map([["k", 1]]), new Set([1]));
      console.log(new Error("bad").message, [1, , 3], -0, new Date(0));
      console.log(Array.from({ length: 150 }, (_, i) => i).length, { deep: { a: { b: { c: { d: { e: { f: 1 } } } } } } });
    `;
    const texts = (await run(engine, code)).result.logs.map((l) => l.text);
    expect(texts).toEqual([
      'obj {"a":1,"b":[1,"x"],"c":{"d":null}}',
      '{"name":"c","self":[Circular]}',
      'undefined 10n Symbol(s) [Function named] Map(1) {"k" => 1} Set(1) {1}',
      "bad [1,undefined,3] -0 1970-01-01T00:00:00.000Z",
      '150 {"deep":{"a":{"b":{"c":{"d":{"e":[Object]}}}}}}',
    ]);
  });

  it("caps long arrays when formatting", async () => {
    const { result } = await run(engine, "console.log(Array.from({ length: 105 }, (_, i) => i))");
    expect(result.logs[0]?.text).toMatch(/,99,… 5 more items\]$/);
  });

  it("prints an Error with its stack", async () => {
    const { result } = await run(engine, 'console.error(new TypeError("nope"))');
    expect(result.logs[0]).toMatchObject({ level: "error" });
    expect(result.logs[0]?.text).toMatch(/^TypeError: nope\n\s+at /);
  });

  it("truncates logs over logBytes with one marker line and keeps the value", async () => {
    const { result } = await run(engine, 'for (let i = 0; i < 100; i++) console.log("0123456789"); return "done"', { limits: { logBytes: 35 } });
    expect(valueOf(result)).toBe("done");
    expect(result.logs.map((l) => l.text)).toEqual([
      "0123456789",
      "0123456789",
      "0123456789",
      "01234",
      "[log output truncated: over the 35-byte limit; later lines dropped]",
    ]);
    expect(result.logs.at(-1)?.level).toBe("warn");
  });

  it("counts log bytes in UTF-8", async () => {
    const { result } = await run(engine, 'console.log("ééé"); console.log("x")', { limits: { logBytes: 6 } });
    expect(result.logs.map((l) => l.text)).toEqual(["ééé", "[log output truncated: over the 6-byte limit; later lines dropped]"]);
  });
});

describe("engine: globals", () => {
  it("turns each data key into a read-only global", async () => {
    const data = { orders: [{ id: "A-1", total: 10 }], currency: "EUR" };
    expect(valueOf((await run(engine, "return orders.length + ' ' + currency", { data })).result)).toBe("1 EUR");
    // A getter without a setter: QuickJS would let defineProperty rewrite a non-writable value.
    const descriptor = await run(
      engine,
      'const d = Object.getOwnPropertyDescriptor(globalThis, "currency");\nreturn [typeof d.get, d.set, d.configurable, d.enumerable]',
      { data },
    );
    expect(valueOf(descriptor.result)).toEqual(["function", null, false, true]);
    const strict = await run(engine, '"use strict"; currency = "USD"; return currency', { data });
    expect(errorOf(strict.result, "runtime").message).toMatch(/TypeError/);
    expect(valueOf((await run(engine, 'currency = "USD"; return currency', { data })).result)).toBe("EUR");
    for (const attempt of [
      'Object.defineProperty(globalThis, "currency", { value: "USD" })',
      'Object.defineProperty(globalThis, "currency", { get: () => "USD" })',
    ]) {
      expect(errorOf((await run(engine, attempt, { data })).result, "runtime").message).toMatch(/TypeError: property is not configurable/);
    }
    expect(valueOf((await run(engine, "return delete globalThis.currency", { data })).result)).toBe(false);
  });

  it("refuses data that is not JSON-safe as a serialization error", async () => {
    const { result } = await run(engine, "return 1", { data: { n: 1n } });
    expect(errorOf(result, "serialization").message).toMatch(/data is not JSON-safe/);
  });

  it("refuses data that is not an object", async () => {
    const { result } = await run(engine, "return 1", { data: [1, 2] as unknown as Record<string, unknown> });
    expect(errorOf(result, "serialization").message).toMatch(/must be an object/);
  });

  it("refuses a data key that would shadow a built-in", async () => {
    const { result } = await run(engine, "return 1", { data: { JSON: 1 } });
    expect(errorOf(result, "runtime").message).toMatch(/Cannot define global "JSON"/);
  });

  it("has ECMAScript built-ins and console, and nothing from the host", async () => {
    const code = `return {
      fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest, importScripts: typeof importScripts,
      require: typeof require, process: typeof process, module: typeof module, window: typeof window,
      self: typeof self, postMessage: typeof postMessage, std: typeof std, os: typeof os,
      WebAssembly: typeof WebAssembly, console: typeof console, JSON: typeof JSON, Promise: typeof Promise,
    }`;
    expect(valueOf((await run(engine, code)).result)).toEqual({
      fetch: "undefined",
      XMLHttpRequest: "undefined",
      importScripts: "undefined",
      require: "undefined",
      process: "undefined",
      module: "undefined",
      window: "undefined",
      self: "undefined",
      postMessage: "undefined",
      std: "undefined",
      os: "undefined",
      WebAssembly: "undefined",
      console: "object",
      JSON: "object",
      Promise: "function",
    });
  });

  it("lists exactly the globals it adds on top of the language", async () => {
    const { result } = await run(engine, "return Object.getOwnPropertyNames(globalThis)", {
      host: { shop: { buy: () => Promise.resolve(1) } },
      data: { d: 1 },
    });
    const names = valueOf(result) as string[];
    const added = names.filter(
      (n) =>
        !/^[A-Z]/.test(n) &&
        ![
          "globalThis",
          "parseInt",
          "parseFloat",
          "isNaN",
          "isFinite",
          "decodeURI",
          "decodeURIComponent",
          "encodeURI",
          "encodeURIComponent",
          "escape",
          "unescape",
          "eval",
          "undefined",
        ].includes(n),
    );
    expect(added.sort()).toEqual(["callTool", "clearTimeout", "console", "d", "setTimeout", "shop"]);
  });

  it("runs setTimeout callbacks, in due order, and clearTimeout cancels", async () => {
    const code = `
      const seen = [];
      setTimeout(() => seen.push("b"), 30);
      setTimeout((x) => seen.push(x), 10, "a");
      const cancelled = setTimeout(() => seen.push("never"), 5);
      clearTimeout(cancelled);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return seen;`;
    expect(valueOf((await run(engine, code)).result)).toEqual(["a", "b"]);
  });

  it("ends the run when a timer callback throws", async () => {
    const { result } = await run(engine, 'setTimeout(() => { throw new Error("in timer") }, 0);\nawait new Promise((r) => setTimeout(r, 50));');
    expect(errorOf(result, "runtime").message).toBe("Error: in timer");
  });
});
