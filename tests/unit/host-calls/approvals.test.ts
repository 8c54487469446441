import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type McpConnection } from "@/lib/mcp/connection";
import { demoServerPath } from "@/lib/demo-servers/catalog";
import { buildHostFunctions, type HostServer } from "@/lib/host-calls/mcp-tools";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions } from "@/lib/sandbox/types";
import { ApprovalBroker, reduceApprovals } from "@/lib/host-calls/approval-store";
import {
  approvalPredicate,
  toolKey,
  withApprovals,
  presetPolicy,
  withApprovalPolicy,
  type ApprovalDecision,
  type ClockAwareCall,
  type PresetDecision,
} from "@/lib/host-calls/approvals";
import type { CallInfo } from "@/lib/timeline/call-records";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { FAST, fakeTool, sleep, valueOf } from "../timeline/helpers";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let connection: McpConnection;
let store: HostServer;

beforeAll(async () => {
  demo = await startDemoHost();
  const config = { id: "store", name: "store", transport: "streamable-http" as const, url: demoServerPath("store"), headers: {}, enabled: true };
  connection = await connectToServer(config, { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" });
  store = { name: "store", connection, tools: await connection.listTools() };
});
afterAll(async () => {
  await connection.close();
  await demo.close();
});

/** Answers prompts from a script of decisions, recording what was asked. */
function scripted(decisions: ApprovalDecision[]) {
  const asked: Array<{ callId: number; tool: string; args: unknown }> = [];
  return {
    asked,
    request: (callId: number, request: { tool: string; args: unknown }) => {
      asked.push({ callId, tool: request.tool, args: request.args });
      return Promise.resolve(decisions.shift() ?? "deny");
    },
  };
}

describe("approvalPredicate", () => {
  it("gates the store's destructive place_order (destructiveHint) and tools the person marked, nothing else", () => {
    const needs = approvalPredicate([store], new Set([toolKey("store", "create_cart")]));
    expect(store.tools.find((t) => t.name === "place_order")?.annotations?.destructiveHint).toBe(true);
    expect(needs("store", "place_order")).toBe(true);
    expect(needs("store", "create_cart")).toBe(true);
    expect(needs("store", "search_stores")).toBe(false);
    expect(needs("other", "place_order")).toBe(false);
  });
});

describe("withApprovals on the real store server", () => {
  const code =
    "return await store.place_order({ cartId: 'cart-nope', deliveryAddress: 'Oranienstraße 25, 10999 Berlin', paymentMethod: 'card' }).catch((e) => e.message)";

  it("deny throws 'denied by the person' in the guest and the server never sees the call", async () => {
    const prompts = scripted(["deny"]);
    const infos: CallInfo[] = [];
    const host = withApprovals(buildHostFunctions([store]).host, {
      needsApproval: approvalPredicate([store]),
      request: prompts.request,
      onInfo: (_id, info) => infos.push(info),
    });
    expect(valueOf(await runInNode({ code, limits: FAST }, host))).toBe("denied by the person");
    expect(prompts.asked).toEqual([
      { callId: 1, tool: "place_order", args: { cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" } },
    ]);
    expect(infos).toEqual([{ approval: "waiting" }, { approval: "denied" }]);
  });

  it("approve sends the call (here the server answers that the cart does not exist)", async () => {
    const prompts = scripted(["approve"]);
    const host = withApprovals(buildHostFunctions([store]).host, { needsApproval: approvalPredicate([store]), request: prompts.request });
    const message = valueOf(await runInNode({ code, limits: FAST }, host));
    expect(message).not.toBe("denied by the person");
    expect(message).toMatch(/cart-nope/);
  });
});

describe("withApprovals", () => {
  function gated(decisions: ApprovalDecision[]) {
    const wipe = fakeTool((args) => ({ wiped: args.id }));
    const read = fakeTool(() => "read");
    const prompts = scripted(decisions);
    const host: HostFunctions = withApprovals({ db: { wipe, read } }, { needsApproval: (_s, tool) => tool === "wipe", request: prompts.request });
    return { host, wipe, read, prompts };
  }

  it("approve-all lets every later call of the run through without asking", async () => {
    const { host, wipe, prompts } = gated(["approve-all"]);
    const code =
      "const a = await db.read(); const first = await db.wipe({ id: 1 }); const rest = await Promise.all([2, 3].map((id) => db.wipe({ id }))); return [a, first, rest];";
    expect(valueOf(await runInNode({ code, limits: FAST }, host))).toEqual(["read", { wiped: 1 }, [{ wiped: 2 }, { wiped: 3 }]]);
    expect(prompts.asked.map((a) => a.callId)).toEqual([2]);
    // The same host (one run's wrapper) keeps the approval; a new run gets a new wrapper.
    const later = await runInNode({ code: "return db.wipe({ id: 9 })", limits: FAST }, host);
    expect(valueOf(later)).toEqual({ wiped: 9 });
    expect(prompts.asked).toHaveLength(1);
    expect(wipe.calls).toHaveLength(4);
  });

  it("suspends the call's clocks while the person decides, when the sandbox offers it", async () => {
    const { host } = gated(["approve"]);
    const clock: string[] = [];
    const call: ClockAwareCall = { callId: 1, suspendClock: () => (clock.push("paused"), () => clock.push("resumed")) };
    await host.db?.wipe?.({ id: 1 }, new AbortController().signal, call);
    await host.db?.read?.({}, new AbortController().signal, call);
    expect(clock).toEqual(["paused", "resumed"]);
  });

  it("rejects a waiting call when the run is cancelled", async () => {
    const host = withApprovals({ db: { wipe: fakeTool(() => "wiped") } }, { needsApproval: () => true, request: () => new Promise(() => undefined) });
    const abort = new AbortController();
    const pending = host.db?.wipe?.({}, abort.signal, { callId: 1 });
    abort.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
  });
});

describe("ApprovalBroker (the UI's store)", () => {
  it("shows pending prompts, resolves the person's decision, and approve-all answers the others", async () => {
    const broker = new ApprovalBroker();
    const wipe = fakeTool((args) => ({ wiped: args.id }));
    const host = withApprovals({ db: { wipe } }, { needsApproval: () => true, request: broker.request });
    let changes = 0;
    broker.subscribe(() => changes++);
    const run = runInNode(
      { code: "return Promise.all([db.wipe({ id: 1 }), db.wipe({ id: 2 }).catch((e) => e.message), db.wipe({ id: 3 })])", limits: FAST },
      host,
    );
    while (broker.snapshot().length < 3) await sleep(5);
    expect(broker.snapshot().map((p) => `${p.callId}:${p.tool}:${JSON.stringify(p.args)}`)).toEqual(['1:wipe:{"id":1}', '2:wipe:{"id":2}', '3:wipe:{"id":3}']);
    broker.decide(2, "deny");
    expect(broker.snapshot().map((p) => p.callId)).toEqual([1, 3]);
    broker.decide(1, "approve-all");
    expect(broker.snapshot()).toEqual([]);
    expect(valueOf(await run)).toEqual([{ wiped: 1 }, "denied by the person", { wiped: 3 }]);
    expect(changes).toBeGreaterThanOrEqual(5);
  });

  it("drops a prompt when its run is cancelled", async () => {
    const broker = new ApprovalBroker();
    const abort = new AbortController();
    const host = withApprovals({ db: { wipe: fakeTool(() => "wiped") } }, { needsApproval: () => true, request: broker.request });
    const pending = host.db?.wipe?.({}, abort.signal, { callId: 1 });
    expect(broker.snapshot()).toHaveLength(1);
    abort.abort();
    await expect(pending).rejects.toThrow();
    expect(broker.snapshot()).toEqual([]);
  });

  it("reduces the pending list purely", () => {
    const approval = { callId: 1, namespace: "db", name: "wipe", server: "db", tool: "wipe", args: {} };
    const one = reduceApprovals([], { type: "request", approval });
    expect(reduceApprovals(one, { type: "request", approval })).toBe(one);
    expect(reduceApprovals(one, { type: "settle", callId: 2 })).toBe(one);
    expect(reduceApprovals(one, { type: "settle", callId: 1 })).toEqual([]);
  });
});

describe("presetPolicy (an eval's policy for destructive calls)", () => {
  function preset(decision: PresetDecision) {
    const wipe = fakeTool((args) => ({ wiped: args.id }));
    const read = fakeTool(() => "read");
    const infos: CallInfo[] = [];
    const host = withApprovalPolicy(
      { db: { wipe, read } },
      presetPolicy((_s, tool) => tool === "wipe", decision),
      { onInfo: (_id, info) => infos.push(info) },
    );
    return { host, wipe, read, infos };
  }
  const code = "const a = await db.read({}); const b = await db.wipe({ id: 7 }).catch((e) => 'error: ' + e.message); return [a, b];";

  it("deny throws the policy's reason in the guest, mock answers with a stand-in; neither reaches the tool; approve sends it; other tools are untouched", async () => {
    const denied = preset("deny");
    expect(valueOf(await runInNode({ code, limits: FAST }, denied.host))).toEqual(["read", "error: denied: this run's policy refuses destructive calls"]);
    expect([denied.wipe.calls.length, denied.read.calls.length]).toEqual([0, 1]);
    expect(denied.infos).toEqual([{ approval: "denied" }]);
    const mocked = preset("mock");
    expect(valueOf(await runInNode({ code, limits: FAST }, mocked.host))).toEqual([
      "read",
      { mocked: true, note: "db.wipe was not called: this run's policy answers destructive calls with this stand-in" },
    ]);
    expect(mocked.wipe.calls).toHaveLength(0);
    const approved = preset("approve");
    expect(valueOf(await runInNode({ code, limits: FAST }, approved.host))).toEqual(["read", { wiped: 7 }]);
    expect(approved.wipe.calls).toHaveLength(1);
  });
});

describe("withApprovalPolicy (one policy, a decider per server)", () => {
  it("asks a person for one server's calls, refuses another's with the policy's reason, and reads both at call time", async () => {
    const wipeA = fakeTool(() => "a wiped");
    const wipeB = fakeTool(() => "b wiped");
    const prompts = scripted(["approve"]);
    const infos: string[] = [];
    let refuseB = true;
    const host = withApprovalPolicy(
      { a: { wipe: wipeA }, b: { wipe: wipeB } },
      {
        needsApproval: () => true,
        decider: (server) =>
          server === "a"
            ? { by: "person", request: prompts.request }
            : refuseB
              ? { by: "policy", decision: "deny", message: "b is read-only here" }
              : { by: "policy", decision: "approve" },
      },
      { onInfo: (id, info) => infos.push(`${id}:${info.approval}`) },
    );
    const code = "return [await a.wipe({}), await b.wipe({}).catch((e) => e.message)]";
    expect(valueOf(await runInNode({ code, limits: FAST }, host))).toEqual(["a wiped", "b is read-only here"]);
    expect(prompts.asked.map((a) => a.tool)).toEqual(["wipe"]);
    expect(wipeB.calls).toHaveLength(0);
    expect(infos).toEqual(["1:waiting", "1:approved", "2:denied"]);
    refuseB = false;
    expect(valueOf(await runInNode({ code: "return await b.wipe({})", limits: FAST }, host))).toBe("b wiped");
  });
});
