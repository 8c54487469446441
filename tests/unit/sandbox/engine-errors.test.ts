import { describe, expect, it } from "vitest";
import { deferred, errorOf, nodeEngine, run, valueOf } from "./helpers";
import type { HostFunctions } from "@/lib/sandbox/types";

const engine = nodeEngine();

describe("error kind: syntax", () => {
  it("has the line and column as written", async () => {
    const { result } = await run(engine, "const a = 1;\nconst b = ;\nreturn a;");
    expect(errorOf(result, "syntax")).toEqual({ kind: "syntax", message: "Unexpected token", line: 2, column: 11 });
    expect(result.stats.hostCalls).toBe(0);
  });
});

describe("error kind: runtime", () => {
  it("has the message, the guest stack and the line", async () => {
    const error = errorOf((await run(engine, 'const a = 1;\nconst b = a + 1;\nthrow new Error("boom " + b);')).result, "runtime");
    expect(error.message).toBe("Error: boom 2");
    expect(error.line).toBe(3);
    expect(error.stack).toMatch(/code\.js:3:/);
  });

  it.each([
    ["a fence", "```js\nconst a = 1;\nnull.x;\n```", 3],
    ["TypeScript", "const a: number = 1;\ntype T = string;\nnull.x;", 3],
    ["an arrow function", "async () => {\n  const a = 1;\n  null.x;\n}", 3],
    ["line one", "null.x", 1],
    ["a nested function", "function f() {\n  return null.x;\n}\nf();", 2],
  ])("maps the line through %s", async (_name, code, line) => {
    const error = errorOf((await run(engine, code)).result, "runtime");
    expect(error.message).toMatch(/^TypeError: /);
    expect(error.line).toBe(line);
    expect(error.stack).toContain(`code.js:${line}:`);
  });

  it("describes thrown values that are not Errors", async () => {
    expect(errorOf((await run(engine, 'throw "oops"')).result, "runtime").message).toBe('Uncaught "oops"');
    expect(errorOf((await run(engine, "throw { code: 7 }")).result, "runtime").message).toBe('Uncaught {"code":7}');
  });

  it("ends a program awaiting a promise that can never settle, at once", async () => {
    const { result } = await run(engine, "await new Promise(() => {})", { limits: { wallMs: 60_000 } });
    expect(errorOf(result, "runtime").message).toMatch(/can never settle/);
    expect(result.stats.wallMs).toBeLessThan(10_000);
  });
});

describe("error kind: timeout", () => {
  it("cpu: a busy loop is interrupted", async () => {
    const error = errorOf((await run(engine, "while (true) {}", { limits: { cpuMs: 100 } })).result, "timeout");
    expect(error).toMatchObject({ clock: "cpu", message: "The code used more than 100 ms of CPU time" });
  });

  it("cpu: a loop of awaits is interrupted too", async () => {
    expect(errorOf((await run(engine, "for (;;) await null", { limits: { cpuMs: 100 } })).result, "timeout").clock).toBe("cpu");
  });

  it("wall: time awaiting counts, and a pending timer does not keep the run alive", async () => {
    const { result } = await run(engine, "await new Promise((r) => setTimeout(r, 60000))", { limits: { wallMs: 150 } });
    expect(errorOf(result, "timeout")).toMatchObject({ clock: "wall" });
  });

  it("wall: a host call that never answers ends with the run", async () => {
    let signal: AbortSignal | undefined;
    const host: HostFunctions = {
      slow: {
        hang: (_args, s) => {
          signal = s;
          return new Promise(() => {});
        },
      },
    };
    const { result, events } = await run(engine, "await slow.hang()", { host, limits: { wallMs: 150, callTimeoutMs: 10_000 } });
    expect(errorOf(result, "timeout")).toMatchObject({ clock: "wall" });
    expect(signal?.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "call-end", callId: 1, ok: false });
  });

  it("call: an uncaught per-call timeout names the call", async () => {
    const host: HostFunctions = { slow: { hang: () => new Promise(() => {}) } };
    const { result } = await run(engine, "await slow.hang({ id: 1 })", { host, limits: { callTimeoutMs: 50 } });
    expect(errorOf(result, "timeout")).toMatchObject({
      clock: "call",
      call: { callId: 1, namespace: "slow", name: "hang" },
      message: "slow.hang: timed out after 50 ms",
    });
  });

  it("call: the guest can catch a per-call timeout and go on", async () => {
    const host: HostFunctions = { slow: { hang: () => new Promise(() => {}) } };
    const code = "try { await slow.hang() } catch (e) { return [e.name, e.message, e.tool] }";
    expect(valueOf((await run(engine, code, { host, limits: { callTimeoutMs: 50 } })).result)).toEqual(["ToolError", "timed out after 50 ms", "slow.hang"]);
  });

  it("call: a failed tool names itself the same way through its namespace and through callTool", async () => {
    const host: HostFunctions = { "my-server": { fail: () => Promise.reject(new Error("refused")) } };
    const code = `const names = [];
for (const call of [() => globalThis["my-server"].fail({}), () => callTool("my-server", "fail", {})]) {
  try { await call() } catch (e) { names.push([e.name, e.message, e.tool, e.callId]) }
}
return names`;
    expect(valueOf((await run(engine, code, { host })).result)).toEqual([
      ["ToolError", "refused", "my-server.fail", 1],
      ["ToolError", "refused", "my-server.fail", 2],
    ]);
  });
});

describe("error kind: memory", () => {
  it("an allocation loop runs out of memory", async () => {
    const error = errorOf(
      (await run(engine, "const a = [];\nwhile (true) a.push({ n: a.length });", { limits: { memoryBytes: 8 * 1024 * 1024, cpuMs: 5_000 } })).result,
      "memory",
    );
    expect(error.message).toMatch(/out of memory/i);
  });

  it("big strings count, though QuickJS's own limit misses them", async () => {
    const code = 'const keep = [];\nwhile (true) keep.push("x".repeat(1 << 20) + keep.length);';
    expect(errorOf((await run(engine, code, { limits: { memoryBytes: 16 * 1024 * 1024, cpuMs: 5_000 } })).result, "memory").message).toMatch(
      /16777216-byte limit/,
    );
  });

  it("typed arrays count too", async () => {
    const code = "const keep = [];\nwhile (true) keep.push(new Uint8Array(1 << 20));";
    expect(errorOf((await run(engine, code, { limits: { memoryBytes: 16 * 1024 * 1024, cpuMs: 5_000 } })).result, "memory").kind).toBe("memory");
  });
});

describe("error kind: stack", () => {
  it("deep recursion overflows the stack", async () => {
    const error = errorOf((await run(engine, "function f(n) { return f(n + 1) + 1 }\nf(0)")).result, "stack");
    expect(error.message).toMatch(/Stack overflow/);
    expect(error.line).toBe(1);
  });
});

describe("error kind: tool", () => {
  const host: HostFunctions = {
    shipping: {
      get_quote: (args) => Promise.resolve({ price: 12, args }),
      fail: () => Promise.reject(new Error("carrier down")),
    },
  };

  it("an uncaught host failure names the call", async () => {
    const { result } = await run(engine, 'await shipping.get_quote({});\nawait shipping.fail({ carrier: "dhl" });', { host });
    expect(errorOf(result, "tool")).toMatchObject({
      message: "shipping.fail: carrier down",
      call: { callId: 2, namespace: "shipping", name: "fail" },
    });
  });

  it("the guest sees the host message and can catch it", async () => {
    const code = "try { await shipping.fail() } catch (e) { return e.message }";
    expect(valueOf((await run(engine, code, { host })).result)).toBe("carrier down");
  });

  it("a rethrown copy is the guest's own runtime error", async () => {
    const code = 'try { await shipping.fail() } catch (e) { throw new Error("wrapped: " + e.message) }';
    expect(errorOf((await run(engine, code, { host })).result, "runtime").message).toBe("Error: wrapped: carrier down");
  });

  it("an unknown tool through callTool is a TypeError in the guest", async () => {
    expect(errorOf((await run(engine, 'await callTool("shipping", "nope", {})', { host })).result, "runtime").message).toBe(
      "TypeError: Unknown tool shipping.nope",
    );
  });

  it("a host value that is not JSON-safe fails that call", async () => {
    const bad: HostFunctions = { h: { big: () => Promise.resolve(10n) } };
    expect(errorOf((await run(engine, "await h.big()", { host: bad })).result, "tool").message).toMatch(/not JSON-safe/);
  });
});

describe("error kind: limit", () => {
  it("maxCalls: the call over the budget ends the run", async () => {
    const host: HostFunctions = { h: { f: () => Promise.resolve(1) } };
    const { result } = await run(engine, "for (let i = 0; i < 10; i++) await h.f();\nreturn 'unreachable'", { host, limits: { maxCalls: 3 } });
    expect(errorOf(result, "limit")).toMatchObject({ limit: "maxCalls", message: "Too many tool calls: the limit is 3 per run" });
    expect(result.stats.hostCalls).toBe(3);
  });

  it("maxCalls: catching does not help", async () => {
    const host: HostFunctions = { h: { f: () => Promise.resolve(1) } };
    const code = "try { await Promise.all([h.f(), h.f(), h.f()]) } catch (e) { return 'caught' }";
    expect(errorOf((await run(engine, code, { host, limits: { maxCalls: 2 } })).result, "limit").limit).toBe("maxCalls");
  });

  it("resultBytes: a large result is refused, measured in UTF-8", async () => {
    expect(errorOf((await run(engine, 'return "x".repeat(2000)', { limits: { resultBytes: 1000 } })).result, "limit").limit).toBe("resultBytes");
    expect(errorOf((await run(engine, 'return ["é".repeat(600)]', { limits: { resultBytes: 1000 } })).result, "limit").limit).toBe("resultBytes");
    expect(errorOf((await run(engine, "return Array.from({ length: 300 }, (_, i) => i)", { limits: { resultBytes: 1000 } })).result, "limit").limit).toBe(
      "resultBytes",
    );
    expect(valueOf((await run(engine, 'return ["é".repeat(400)]', { limits: { resultBytes: 1000 } })).result)).toEqual(["é".repeat(400)]);
  });
});

describe("error kind: cancelled", () => {
  it("while awaiting a host call, promptly, aborting the call's signal", async () => {
    const started = deferred<AbortSignal>();
    const host: HostFunctions = {
      slow: {
        hang: (_args, signal) => {
          started.resolve(signal);
          return new Promise(() => {});
        },
      },
    };
    const controller = new AbortController();
    const pending = run(engine, "await slow.hang()", { host, signal: controller.signal, limits: { wallMs: 30_000 } });
    const signal = await started.promise;
    controller.abort();
    const { result, events } = await pending;
    expect(errorOf(result, "cancelled").message).toBe("The run was cancelled");
    expect(signal.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "call-end", ok: false, error: "cancelled" });
    expect(result.stats.wallMs).toBeLessThan(5_000);
  });

  it("before the run starts", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(errorOf((await run(engine, "return 1", { signal: controller.signal })).result, "cancelled").kind).toBe("cancelled");
  });
});

describe("error kind: serialization", () => {
  it.each([
    ["return { total: 12n }", "result.total is a BigInt (12n)"],
    ["const a = { list: [] };\na.list.push(a);\nreturn a", "result.list[0] is a circular reference back to result"],
    ["return { f() {} }", "result.f is a function"],
    ["return [Symbol('s')]", "result[0] is a Symbol"],
    ['return { "odd key": new Map() }', 'result["odd key"] is a Map'],
    ["return { p: Promise.resolve(1) }", "result.p is a Promise (did you forget await?)"],
    ["return 5n", "result is a BigInt (5n)"],
    ["return { e: new Error('x') }", "result.e is an Error"],
  ])("%s says what and where", async (code, where) => {
    const error = errorOf((await run(engine, code)).result, "serialization");
    expect(error.message).toContain(`The result is not JSON-safe: ${where}`);
  });

  it("a deeply nested value is refused, not crashed on", async () => {
    const code = "let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v";
    const { result } = await run(engine, code);
    expect(result.ok).toBe(false);
    expect(["serialization", "stack"]).toContain(result.ok ? "" : result.error.kind);
    expect(valueOf((await run(engine, "return 1")).result)).toBe(1);
  });
});

describe("a tool the namespace lacks", () => {
  const tools: HostFunctions = {
    lab: { echo: () => Promise.resolve("e"), sleep: () => Promise.resolve(1), flaky: () => Promise.resolve(2) },
    shipping: { get_quote: () => Promise.resolve(3) },
  };

  it("a call of it names the server, the nearest tools and all of them, instead of 'not a function'", async () => {
    expect(errorOf((await run(engine, "await lab.ecoh({ message: 'x' })", { host: tools })).result, "runtime").message).toBe(
      'TypeError: lab has no tool "ecoh"; did you mean lab.echo? Its tools: echo, sleep, flaky.',
    );
    expect(errorOf((await run(engine, "await lab.no_such_tool({})", { host: tools })).result, "runtime").message).toBe(
      'TypeError: lab has no tool "no_such_tool". Its tools: echo, sleep, flaky.',
    );
    expect(errorOf((await run(engine, "await shipping.quote({})", { host: tools })).result, "runtime").message).toBe(
      'TypeError: shipping has no tool "quote"; did you mean shipping.get_quote? Its tools: get_quote.',
    );
  });

  it("leaves the namespace an ordinary object: a missing name reads as undefined (feature checks work), keys, in, JSON, await", async () => {
    const code = [
      "const ns = await lab;",
      "return {",
      "  same: ns === lab, keys: Object.keys(lab), has: 'echo' in lab, lacks: 'nope' in lab,",
      "  json: JSON.stringify(lab), str: typeof lab.toString, own: lab.hasOwnProperty('echo'), proto: lab.prototype,",
      "  call: await lab.echo(), missing: typeof lab.nope,",
      "};",
    ].join("\n");
    expect(valueOf((await run(engine, code, { host: tools })).result)).toEqual({
      same: true,
      keys: ["echo", "sleep", "flaky"],
      has: true,
      lacks: false,
      json: "{}",
      str: "function",
      own: true,
      call: "e",
      missing: "undefined",
    });
  });
});
