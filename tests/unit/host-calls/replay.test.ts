import { describe, expect, it } from "vitest";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions, RunEvent } from "@/lib/sandbox/types";
import type { CallInfo } from "@/lib/timeline/call-records";
import { createReplayHost, type Divergence } from "@/lib/host-calls/replay";
import { FAST, fakeTool, recordRun, valueOf } from "../timeline/helpers";

/** A fake "api" server whose answers depend on the arguments and whose delays vary per call. */
function apiServer(delay: (args: Record<string, unknown>) => number = () => Math.random() * 15) {
  const get = fakeTool((args) => ({ id: args.id, name: `item ${String(args.id)}`, at: Math.random() }), delay);
  const after = fakeTool((args) => ({ from: args.from, stamp: Math.random() }), delay);
  const broken = fakeTool(() => {
    throw new Error("the upstream is down");
  });
  const host: HostFunctions = { api: { get, after, broken } };
  return { host, get, after, broken };
}

const liveCount = (server: ReturnType<typeof apiServer>) => server.get.calls.length + server.after.calls.length + server.broken.calls.length;

describe("Promise.all start order in QuickJS", () => {
  it("starts parallel calls in code order, whatever order they finish in", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const events: RunEvent[] = [];
      const server = apiServer();
      await runInNode({ code: "return Promise.all([1, 2, 3, 4, 5].map((id) => api.get({ id })))", limits: FAST }, server.host, {
        onEvent: (e) => events.push(e),
      });
      const starts = events.flatMap((e) => (e.type === "call-start" ? [`${e.callId}:${JSON.stringify(e.args)}`] : []));
      expect(starts).toEqual(['1:{"id":1}', '2:{"id":2}', '3:{"id":3}', '4:{"id":4}', '5:{"id":5}']);
    }
  });
});

describe("createReplayHost", () => {
  const code = `
    const [a, b] = await Promise.all([api.get({ id: 1 }), api.get({ id: 2 })]);
    let failure;
    try { await api.broken({}); } catch (e) { failure = e.message; }
    const c = await api.get({ id: a.id + b.id });
    return { a, b, c, failure };`;

  it("replays the same code to the same value without contacting the server, deterministically", async () => {
    const server = apiServer();
    const { result, record } = await recordRun(code, () => server.host);
    const recorded = valueOf(result);
    expect(recorded).toMatchObject({ c: { id: 3 }, failure: "the upstream is down" });
    const before = liveCount(server);
    for (let i = 0; i < 3; i++) {
      const sources: Array<[number, CallInfo]> = [];
      const host = createReplayHost(record, { onMismatch: "stop", onInfo: (callId, info) => sources.push([callId, info]) });
      const replayed = await runInNode({ code, limits: FAST }, host);
      expect(valueOf(replayed)).toEqual(recorded);
      expect(sources.map(([id, info]) => `${id}:${info.source}`)).toEqual(["1:replay", "2:replay", "3:replay", "4:replay"]);
    }
    expect(liveCount(server)).toBe(before);
  });

  it("matches calls made after awaits even when replay finishes them in another order than the recording", async () => {
    // Recorded: id 1 is slow, so `after({from: 2})` is call 3 and `after({from: 1})` call 4.
    // Replayed: both answers are immediate, so the guest makes `after({from: 1})` first.
    const server = apiServer((args) => (args.id === 1 ? 40 : 0));
    const chained = `
      const log = [];
      await Promise.all([1, 2].map((id) => api.get({ id }).then(() => api.after({ from: id })).then((r) => log.push(r.from + ":" + r.stamp))));
      return log;`;
    const { result, record } = await recordRun(chained, () => server.host);
    expect((valueOf(result) as string[]).map((s) => s.split(":")[0])).toEqual(["2", "1"]);
    const replayed = await runInNode({ code: chained, limits: FAST }, createReplayHost(record, { onMismatch: "stop" }));
    // Same answers per call; with instant timing the guest sees them in its own order.
    expect([...(valueOf(replayed) as string[])].sort()).toEqual([...(valueOf(result) as string[])].sort());
    // With recorded timing, completion order (and so the value) is the recording's.
    const timed = await runInNode({ code: chained, limits: FAST }, createReplayHost(record, { onMismatch: "stop", timing: "recorded" }));
    expect(valueOf(timed)).toEqual(valueOf(result));
  });

  it("stops at the first divergence with 'diverged at call N (expected X, got Y)' thrown in the guest, and reports it", async () => {
    const server = apiServer();
    const { record } = await recordRun(code, () => server.host);
    const before = liveCount(server);
    const divergences: Divergence[] = [];
    const host = createReplayHost(record, { onMismatch: "stop", live: server.host, onDivergence: (d) => divergences.push(d) });
    const changed = `
      const a = await api.get({ id: 1 });
      try { await api.get({ id: 7 }); } catch (e) { return { first: e.message, later: await api.get({ id: 2 }).catch((e2) => e2.message) }; }`;
    const value = valueOf(await runInNode({ code: changed, limits: FAST }, host)) as { first: string; later: string };
    expect(value.first).toBe('Replay diverged at call 2 (expected api.get({"id":2}), got api.get({"id":7}))');
    expect(value.later).toBe(value.first);
    expect(divergences).toHaveLength(1);
    expect(divergences[0]).toMatchObject({
      callNumber: 2,
      expected: { callId: 2, args: { id: 2 } },
      actual: { namespace: "api", name: "get", args: { id: 7 } },
    });
    expect(liveCount(server)).toBe(before);
  });

  it("uncaught, a divergence ends the run as a tool error naming the call", async () => {
    const { record } = await recordRun("return api.get({ id: 1 })", () => apiServer().host);
    const result = await runInNode(
      { code: "await api.get({ id: 1 }); return api.get({ id: 1 })", limits: FAST },
      createReplayHost(record, { onMismatch: "stop" }),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({
      kind: "tool",
      message: 'api.get: Replay diverged at call 2 (expected no more calls, got api.get({"id":1}))',
    });
  });

  it("goes to the live server from the divergence on, when asked to", async () => {
    const server = apiServer();
    const { record } = await recordRun(code, () => server.host);
    const before = server.get.calls.length;
    const sources: string[] = [];
    const host = createReplayHost(record, { onMismatch: "live", live: server.host, onInfo: (id, info) => sources.push(`${id}:${info.source}`) });
    const changed = `
      const a = await api.get({ id: 1 });
      const x = await api.get({ id: 9 });
      const b = await api.get({ id: 2 });
      return [a.id, x.id, b.id];`;
    expect(valueOf(await runInNode({ code: changed, limits: FAST }, host))).toEqual([1, 9, 2]);
    expect(sources).toEqual(["1:replay", "2:live", "3:live"]);
    expect(server.get.calls.slice(before)).toEqual([{ id: 9 }, { id: 2 }]);
  });

  it("matches arguments by stable JSON (key order does not matter) and offers the recorded namespaces", async () => {
    const { result, record } = await recordRun('return api.get({ id: 1, view: "full" })', () => apiServer().host);
    const host = createReplayHost(record, { onMismatch: "stop" });
    expect(Object.keys(host.api ?? {}).sort()).toEqual(["after", "broken", "get"]);
    const replayed = await runInNode({ code: 'return api.get({ view: "full", id: 1 })', limits: FAST }, host);
    expect(valueOf(replayed)).toEqual(valueOf(result));
  });

  it("refuses live mode without live host functions", () => {
    const record = { format: "code-mode-playground/run", version: 1, id: "x", startedAt: "", events: [] } as const;
    expect(() => createReplayHost({ ...record, events: [] }, { onMismatch: "live" })).toThrow(/needs live host functions/);
  });
});
