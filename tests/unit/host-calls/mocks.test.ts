import { describe, expect, it } from "vitest";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions } from "@/lib/sandbox/types";
import type { CallInfo } from "@/lib/timeline/call-records";
import { buildDebugHost } from "@/lib/host-calls/debug-host";
import { withMocks, type MockTable, type ScriptRunner } from "@/lib/host-calls/mocks";
import { FAST, fakeTool, recordRun, valueOf } from "../timeline/helpers";

const runScript: ScriptRunner = (request, signal) => runInNode(request, {}, { signal });

function shop() {
  const quote = fakeTool((args) => ({ price: Number(args.kg) * 10, source: "live" }));
  const order = fakeTool(() => ({ orderId: "live-1" }));
  const host: HostFunctions = { shop: { quote, order } };
  return { host, quote, order };
}

describe("withMocks", () => {
  it("answers a mocked tool with its fixed value, never calling the server, and marks the call", async () => {
    const server = shop();
    const infos: Array<[number, CallInfo]> = [];
    const host = withMocks(server.host, { shop: { quote: { kind: "value", value: { price: 1, source: "mock" } } } }, (id, info) => infos.push([id, info]));
    const value = valueOf(await runInNode({ code: "return [await shop.quote({ kg: 2 }), await shop.order({})]", limits: FAST }, host));
    expect(value).toEqual([{ price: 1, source: "mock" }, { orderId: "live-1" }]);
    expect(server.quote.calls).toEqual([]);
    expect(server.order.calls).toHaveLength(1);
    expect(infos).toEqual([[1, { source: "mock" }]]);
  });

  it("throws a mocked error in the guest", async () => {
    const host = withMocks(shop().host, { shop: { order: { kind: "error", message: "out of stock" } } });
    const value = valueOf(await runInNode({ code: "try { await shop.order({}); } catch (e) { return e.message; }", limits: FAST }, host));
    expect(value).toBe("out of stock");
  });

  it("runs a script mock in a fresh sandbox with args and a call count, and nothing else", async () => {
    const mocks: MockTable = {
      shop: { quote: { kind: "script", source: "return { price: args.kg * 3, call, tools: typeof shop, fetch: typeof fetch }" } },
    };
    const host = withMocks(shop().host, mocks, undefined, { runScript });
    const value = valueOf(await runInNode({ code: "return [await shop.quote({ kg: 2 }), await shop.quote({ kg: 5 })]", limits: FAST }, host));
    expect(value).toEqual([
      { price: 6, call: 1, tools: "undefined", fetch: "undefined" },
      { price: 15, call: 2, tools: "undefined", fetch: "undefined" },
    ]);
  });

  it("turns a script's throw, or a runaway script, into the tool's error", async () => {
    const mocks: MockTable = {
      shop: {
        quote: { kind: "script", source: 'if (args.kg > 100) throw new Error("too heavy"); return 1' },
        order: { kind: "script", source: "while (true) {}" },
      },
    };
    const host = withMocks(shop().host, mocks, undefined, { runScript });
    const code = `
      const a = await shop.quote({ kg: 500 }).catch((e) => e.message);
      const b = await shop.order({}).catch((e) => e.message);
      return [a, b];`;
    const [heavy, runaway] = valueOf(await runInNode({ code, limits: { ...FAST, callTimeoutMs: 3_000 } }, host)) as string[];
    expect(heavy).toBe("too heavy");
    expect(runaway).toMatch(/^mock script \(timeout\): .*CPU/);
  });

  it("says so when a script mock has no sandbox to run in", async () => {
    const host = withMocks(shop().host, { shop: { quote: { kind: "script", source: "return 1" } } });
    const value = valueOf(await runInNode({ code: "return shop.quote({}).catch((e) => e.message)", limits: FAST }, host));
    expect(value).toBe("This mock is a script, and no sandbox is available to run it");
  });

  it("adds mocked tools the host lacks (a server that is down)", async () => {
    const host = withMocks({}, { weather: { today: { kind: "value", value: "sunny" } } });
    expect(valueOf(await runInNode({ code: "return weather.today()", limits: FAST }, host))).toBe("sunny");
  });
});

describe("precedence: mock > replay > live", () => {
  it("mocks win over the recording, the recording over the live server, and only live calls ask for approval", async () => {
    const recordedServer = shop();
    const { record } = await recordRun("return [await shop.quote({ kg: 1 }), await shop.order({ id: 1 })]", () => recordedServer.host);
    const live = shop();
    const sources: string[] = [];
    const asked: string[] = [];
    const host = buildDebugHost({
      live: live.host,
      onInfo: (id, info) => info.source && sources.push(`${id}:${info.source}`),
      replay: { record, onMismatch: "live" },
      mocks: { shop: { quote: { kind: "value", value: { price: 0, source: "mock" } } } },
      policy: {
        needsApproval: (_server, tool) => tool === "order",
        decider: () => ({ by: "person", request: (id) => (asked.push(`${id}`), Promise.resolve("approve")) }),
      },
    });
    const code = "return [await shop.quote({ kg: 1 }), await shop.order({ id: 1 }), await shop.order({ id: 2 })]";
    const value = valueOf(await runInNode({ code, limits: FAST }, host));
    expect(value).toEqual([{ price: 0, source: "mock" }, { orderId: "live-1" }, { orderId: "live-1" }]);
    expect(sources).toEqual(["1:mock", "2:replay", "3:live"]);
    // Call 2 was replayed (no server, no prompt); call 3 diverged, went live, and was gated.
    expect(live.order.calls).toEqual([{ id: 2 }]);
    expect(asked).toEqual(["3"]);
  });
});
