import { describe, expect, it } from "vitest";
import { deferred, errorOf, nodeEngine, run, valueOf } from "./helpers";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions, RunEvent } from "@/lib/sandbox/types";

const engine = nodeEngine();

/** The most calls in flight at once, replayed from call-start/call-end events (not wall time). */
function maxOverlap(events: RunEvent[]): number {
  let inFlight = 0;
  let max = 0;
  for (const event of events) {
    if (event.type === "call-start") max = Math.max(max, ++inFlight);
    else if (event.type === "call-end") inFlight--;
  }
  return max;
}

const later = <T>(value: T, ms = 5) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("host calls", () => {
  it("Promise.all runs calls in parallel: every call starts before the first ends", async () => {
    const gates = [deferred<number>(), deferred<number>(), deferred<number>()];
    let started = 0;
    const host: HostFunctions = {
      shop: {
        price: (args) => {
          started++;
          if (started === 3) gates.forEach((g, i) => g.resolve(i * 10));
          return gates[(args as { i: number }).i]!.promise;
        },
      },
    };
    const { result, events } = await run(engine, "return await Promise.all([0, 1, 2].map((i) => shop.price({ i })))", { host });
    expect(valueOf(result)).toEqual([0, 10, 20]);
    expect(events.map((e) => e.type)).toEqual(["call-start", "call-start", "call-start", "call-end", "call-end", "call-end"]);
    expect(result.stats).toMatchObject({ hostCalls: 3, peakInFlight: 3 });
  });

  it("caps calls in flight at maxConcurrency; the rest queue in order", async () => {
    const host: HostFunctions = { shop: { price: (args) => later(args) } };
    const code = "return (await Promise.all(Array.from({ length: 25 }, (_, i) => shop.price(i)))).length";
    const { result, events } = await run(engine, code, { host, limits: { maxConcurrency: 4 } });
    expect(valueOf(result)).toBe(25);
    expect(maxOverlap(events)).toBe(4);
    expect(result.stats.peakInFlight).toBe(4);
    const starts = events.flatMap((e) => (e.type === "call-start" ? [e.callId] : []));
    expect(starts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("records each call's arguments, line, value and times", async () => {
    const host: HostFunctions = { shipping: { get_quote: (args) => Promise.resolve({ price: 12, for: args }) } };
    const { result, events } = await run(engine, 'return await shipping.get_quote({ carrier: "dhl", kg: 2 })', { host });
    expect(valueOf(result)).toEqual({ price: 12, for: { carrier: "dhl", kg: 2 } });
    expect(events).toEqual([
      { type: "call-start", callId: 1, namespace: "shipping", name: "get_quote", args: { carrier: "dhl", kg: 2 }, line: 1, time: expect.any(Number) as number },
      { type: "call-end", callId: 1, ok: true, value: { price: 12, for: { carrier: "dhl", kg: 2 } }, time: expect.any(Number) as number },
    ]);
    const times = events.map((e) => (e.type === "log" ? e.entry.time : e.time));
    expect(times[1]).toBeGreaterThanOrEqual(times[0] ?? Infinity);
  });

  it("passes arguments and results as JSON copies", async () => {
    let received: unknown;
    const shared = { list: [1] };
    const host: HostFunctions = {
      h: {
        take: (args) => {
          received = args;
          return Promise.resolve(shared);
        },
      },
    };
    const code = "const args = { when: new Date(0), skip: undefined, n: 1 };\nconst got = await h.take(args);\nargs.n = 2;\ngot.list.push(2);\nreturn got";
    expect(valueOf((await run(engine, code, { host })).result)).toEqual({ list: [1, 2] });
    expect(received).toEqual({ when: "1970-01-01T00:00:00.000Z", n: 1 });
    expect(shared).toEqual({ list: [1] });
  });

  it("keeps undefined arguments and results undefined", async () => {
    let seen: unknown = "not called";
    const host: HostFunctions = {
      h: {
        nothing: (args) => {
          seen = args;
          return Promise.resolve(undefined);
        },
      },
    };
    expect(valueOf((await run(engine, "return typeof (await h.nothing())", { host })).result)).toBe("undefined");
    expect(seen).toBeUndefined();
  });

  it("refuses arguments that are not JSON-safe in the guest", async () => {
    const host: HostFunctions = { h: { f: () => Promise.resolve(1) } };
    const code = "try { await h.f({ n: 1n }) } catch (e) { return e.name }";
    expect(valueOf((await run(engine, code, { host })).result)).toBe("TypeError");
  });

  it("offers the generic callTool(namespace, name, args)", async () => {
    const host: HostFunctions = { "my-server": { echo: (args) => Promise.resolve(args) } };
    expect(valueOf((await run(engine, 'return await callTool("my-server", "echo", [1])', { host })).result)).toEqual([1]);
  });

  it("gives each namespace a frozen object of async functions", async () => {
    const host: HostFunctions = { shop: { buy: () => Promise.resolve(1), sell: () => Promise.resolve(2) } };
    const code = "return [Object.isFrozen(shop), Object.keys(shop), shop.buy.name, shop.buy() instanceof Promise]";
    expect(valueOf((await run(engine, code, { host })).result)).toEqual([true, ["buy", "sell"], "buy", true]);
  });

  it("aborts calls still in flight when the program returns without awaiting them", async () => {
    let signal: AbortSignal | undefined;
    const host: HostFunctions = {
      h: {
        slow: (_args, s) => {
          signal = s;
          return new Promise(() => {});
        },
        fast: () => Promise.resolve(1),
      },
    };
    const { result, events } = await run(engine, "h.slow();\nawait h.fast();\nreturn 'done'", { host });
    expect(valueOf(result)).toBe("done");
    expect(signal?.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "call-end", callId: 1, ok: false, error: "the run ended" });
  });

  it("works through runInNode with plain host functions", async () => {
    const result = await runInNode(
      { code: "return await math.add({ a: 2, b: 3 })" },
      { math: { add: (args) => Promise.resolve((args as { a: number; b: number }).a + (args as { a: number; b: number }).b) } },
    );
    expect(valueOf(result)).toBe(5);
  });

  it("a host function that throws synchronously fails its call", async () => {
    const host: HostFunctions = {
      h: {
        boom: () => {
          throw new Error("sync boom");
        },
      },
    };
    expect(errorOf((await run(engine, "await h.boom()", { host })).result, "tool").message).toBe("h.boom: sync boom");
  });
});
