/**
 * The page's workbench as a plain object in Node: the real QuickJS engine behind the page's
 * RunController (an in-memory worker), host functions from a live host of fake servers, and the
 * stores the panels read (live run, history, mocks, replay, approvals).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { HostFunctions } from "@/lib/sandbox/types";
import { Workbench, type LiveHost } from "@/lib/playground/workbench";
import { recordedCalls, recordStart } from "@/lib/timeline/run-record";
import { liveWorker } from "../sandbox/ports";
import { fakeTool, until, valueOf } from "../timeline/helpers";

const servers = [
  {
    name: "shop",
    tools: [
      { name: "quote", inputSchema: { type: "object" } },
      { name: "refund", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
    ],
  },
];

function shop() {
  const quote = fakeTool((args) => ({ price: 4, kg: args.kg }));
  const refund = fakeTool((args) => ({ refunded: args.id }));
  const live: LiveHost = { hostFor: (): HostFunctions => ({ shop: { quote, refund } }), servers: () => servers };
  return { quote, refund, live };
}

const benches: Workbench[] = [];
function bench(live: LiveHost): Workbench {
  const workbench = new Workbench({ createWorker: liveWorker, live, renderIntervalMs: 0 });
  benches.push(workbench);
  workbench.start();
  return workbench;
}
afterEach(() => benches.splice(0).forEach((b) => b.dispose()));

describe("Workbench", () => {
  it("runs a program against the live host, shows it on the live store and records it in the history with its source", async () => {
    const { quote, live } = shop();
    const workbench = bench(live);
    await until(() => workbench.sandbox.snapshot().ready);
    const result = await workbench.run("return await shop.quote({ kg: 2 })", { source: "chat" });
    expect(valueOf(result)).toEqual({ price: 4, kg: 2 });
    expect(quote.calls).toEqual([{ kg: 2 }]);
    expect(workbench.live.snapshot().view.status).toBe("done");
    expect(workbench.sandbox.snapshot().ranCode).toBe("return await shop.quote({ kg: 2 })");
    const [entry] = workbench.history.snapshot();
    expect(entry?.source).toBe("chat");
    expect(recordedCalls(entry!.record).map((c) => `${c.namespace}.${c.name}`)).toEqual(["shop.quote"]);
  });

  it("an eval's or a comparison's run borrows the Output and gives the editor's back; its record stays in the history", async () => {
    const { live } = shop();
    const workbench = bench(live);
    await until(() => workbench.sandbox.snapshot().ready);
    await workbench.run("return await shop.quote({ kg: 1 })");
    const editors = workbench.live.snapshot();
    for (const source of ["eval", "compare"] as const) {
      let seenWhileRunning = false;
      const off = workbench.live.subscribe(() => (seenWhileRunning ||= workbench.live.snapshot().view.status === "running"));
      const result = await workbench.run("return await shop.quote({ kg: 9 })", { source });
      off();
      expect(valueOf(result)).toEqual({ price: 4, kg: 9 });
      expect(seenWhileRunning).toBe(true);
      expect(workbench.live.snapshot()).toBe(editors);
      expect(workbench.sandbox.snapshot().ranCode).toBe("return await shop.quote({ kg: 1 })");
      expect(workbench.history.snapshot()[0]?.source).toBe(source);
    }
  });

  it("a program naming a registered server that is not connected is told which and why, not a bare ReferenceError; other names stay as QuickJS says", async () => {
    const { live } = shop();
    const workbench = bench({
      ...live,
      notConnected: () =>
        new Map([["mem", 'Server "mem" is not connected: it is switched off in the Servers panel. Connect it in the Servers panel, then run again.']]),
    });
    const result = await workbench.run("return await mem.read_graph({})");
    expect(!result.ok && result.error.message).toBe(
      'ReferenceError: Server "mem" is not connected: it is switched off in the Servers panel. Connect it in the Servers panel, then run again.',
    );
    const typo = await workbench.run("return await nope.read_graph({})");
    expect(!typo.ok && typo.error.message).toBe("ReferenceError: 'nope' is not defined");
  });

  it("refuses a second run while one is going, and Stop ends the first", async () => {
    const slow = fakeTool(
      () => "late",
      () => 10_000,
    );
    const workbench = bench({ hostFor: () => ({ shop: { quote: slow } }), servers: () => servers });
    const first = workbench.run("return await shop.quote({})");
    await until(() => workbench.running);
    expect(await workbench.run("return 1")).toMatchObject({ ok: false, error: { kind: "busy" } });
    workbench.stop();
    expect(await first).toMatchObject({ ok: false });
    expect(valueOf(await workbench.run("return 1"))).toBe(1);
  });

  it("a mock answers instead of the server; the armed replay answers the next run only, from its recording", async () => {
    const { quote, live } = shop();
    const workbench = bench(live);
    workbench.mocks.setMock("shop", "quote", { kind: "value", value: { price: 0 } });
    expect(valueOf(await workbench.run("return await shop.quote({ kg: 1 })"))).toEqual({ price: 0 });
    expect(quote.calls).toHaveLength(0);
    workbench.mocks.setMock("shop", "quote", undefined);
    expect(workbench.mocks.snapshot()).toEqual({});

    await workbench.run("return await shop.quote({ kg: 5 })");
    const recorded = workbench.history.snapshot()[0]!.record;
    workbench.replay.arm({ record: recorded, onMismatch: "stop" });
    expect(valueOf(await workbench.run("return await shop.quote({ kg: 5 })"))).toEqual({ price: 4, kg: 5 });
    expect(quote.calls).toHaveLength(1);
    expect(recordStart(workbench.history.snapshot()[0]!.record)?.replayOf).toBe(recorded.id);
    expect(workbench.replay.snapshot().choice).toBeUndefined();
    await workbench.run("return await shop.quote({ kg: 5 })");
    expect(quote.calls).toHaveLength(2);
  });

  it("a destructive call waits for the person; a program approved as a whole, or a preset decision, does not ask", async () => {
    const { refund, live } = shop();
    const workbench = bench(live);
    const asked = workbench.run("return await shop.refund({ id: 'o1' })");
    await until(() => workbench.approvals.broker.snapshot().length === 1);
    expect(workbench.approvals.broker.snapshot()[0]).toMatchObject({ server: "shop", tool: "refund", args: { id: "o1" } });
    workbench.approvals.broker.decide(workbench.approvals.broker.snapshot()[0]!.callId, "approve");
    expect(valueOf(await asked)).toEqual({ refunded: "o1" });

    expect(valueOf(await workbench.run("return await shop.refund({ id: 'o2' })", { preApproved: true }))).toEqual({ refunded: "o2" });
    const denied = await workbench.run("return await shop.refund({ id: 'o3' }).catch((e) => e.message)", { destructive: "deny" });
    expect(valueOf(denied)).toMatch(/policy refuses destructive calls/);
    expect(refund.calls).toEqual([{ id: "o1" }, { id: "o2" }]);
    expect(workbench.approvals.broker.snapshot()).toEqual([]);
  });

  it("a tool the person marks asks too, and a prompt left open is denied when its run is stopped", async () => {
    const { quote, live } = shop();
    const workbench = bench(live);
    expect(workbench.approvals.needsApproval("shop", "quote")).toBe(false);
    workbench.approvals.marked.toggle("shop", "quote");
    expect(workbench.approvals.needsApproval("shop", "quote")).toBe(true);
    const run = workbench.run("return await shop.quote({ kg: 1 })");
    await until(() => workbench.approvals.broker.snapshot().length === 1);
    workbench.stop();
    expect(await run).toMatchObject({ ok: false });
    expect(workbench.approvals.broker.snapshot()).toEqual([]);
    expect(quote.calls).toHaveLength(0);
  });

  it("the history imports a run file and refuses a broken one with its reason", () => {
    const workbench = bench(shop().live);
    expect(workbench.history.importText("{not json")).toMatchObject({ error: expect.anything() as unknown });
    expect(workbench.history.snapshot()).toEqual([]);
  });
});
