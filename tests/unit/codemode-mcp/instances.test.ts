/**
 * Two instances of the code-mode server sharing a real Redis (docs/benchmarks.md, "The
 * code-mode MCP server"), each with its own sandbox threads and servers, as two `npm run serve`
 * behind a round-robin proxy would be: every second request lands on the other instance. An
 * approval answered on the other instance resumes the program where it waits; a task started on
 * one is read, answered and cancelled on the other; an instance that stops leaves its tasks
 * failed with words, and its paused approvals answered with why. A requestState sealed by an
 * instance with another token is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { openRedisConnection, type SharedRedis } from "@/lib/http/server/redis-connection";
import { ModernRuns } from "@/lib/codemode-mcp/modern-runs";
import { createRedisCluster } from "@/lib/codemode-mcp/server/redis-cluster";
import { requestStateKey } from "@/lib/codemode-mcp/server/endpoint";
import type { Cluster } from "@/lib/codemode-mcp/cluster";
import { RunFeed, type FeedUpdate } from "@/lib/codemode-mcp/run-feed";
import { startRedis, type RedisServer } from "../../fixtures/redis";
import { codeModeHarness, HARNESS_TOKEN, postModern, type ModernAnswer } from "./fixtures";

const harness = codeModeHarness();
let redis: RedisServer;
let shared: SharedRedis;
const clusters: Cluster[] = [];
let prefix = 0;

beforeAll(async () => {
  redis = await startRedis();
  shared = openRedisConnection(redis.url);
});
afterAll(async () => {
  await Promise.all(clusters.map((c) => c.close()));
  await shared.close();
  await redis.stop();
});

const TASKS = { "io.modelcontextprotocol/tasks": {} };
const meta = (name: string, capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name, version: "1" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

/** Two instances over one Redis prefix (and the same token), each with a feed of its runs. */
async function twoInstances(codeMode: Record<string, unknown>, token = HARNESS_TOKEN) {
  const keys = `inst${++prefix}:`;
  const made: Array<{ url: string; feed: FeedUpdate[]; cluster: Cluster }> = [];
  for (const name of ["a", "b"]) {
    const cluster = createRedisCluster({ redis: shared, prefix: keys, aliveMs: 1_500, renewMs: 300, checkMs: 200 });
    clusters.push(cluster);
    const feed = new RunFeed();
    const updates: FeedUpdate[] = [];
    feed.subscribe((update) => updates.push(update));
    const { url } = await harness.serve(
      { ...codeMode },
      {
        feed,
        runs: (service) => new ModernRuns({ taskAfterMs: service.taskAfterMs, stateKey: requestStateKey(name === "b" ? token : HARNESS_TOKEN), cluster }),
      },
    );
    made.push({ url, feed: updates, cluster });
  }
  const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
  return { a, b };
}

/** A v2 SDK client whose requests alternate between the two URLs, as round-robin would send them. */
async function roundRobinClient(name: string, urls: [string, string], landed: string[]) {
  let next = 0;
  const client = new Client({ name, version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  client.registerCapabilities({ elicitation: { form: {} } });
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { approve: true } }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(urls[0]), {
      requestInit: { headers: { authorization: `Bearer ${HARNESS_TOKEN}` } },
      fetch: (_input, init) => {
        const url = urls[next++ % 2] ?? urls[0];
        landed.push(url);
        return fetch(url, init);
      },
    }),
  );
  return client;
}

/** The retried call that answers yes to the approval `paused` asked, sent to `url` (either instance). */
function approve(url: string, paused: ModernAnswer) {
  const key = Object.keys(paused.json.result?.inputRequests as Record<string, unknown>)[0] ?? "";
  return postModern(
    url,
    {
      method: "tools/call",
      params: {
        name: "execute_code",
        arguments: { code: ORDER },
        requestState: paused.json.result?.requestState,
        inputResponses: { [key]: { action: "accept", content: { approve: true } } },
        _meta: meta("asker", { elicitation: { form: {} } }),
      },
    },
    "execute_code",
  );
}

const ORDER = `const before = await lab.echo({ message: "first" }); let order; try { order = await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { order = "error: " + e.message; } return { before: before.message, order };`;

describe("two instances sharing Redis", () => {
  it("a client whose every second request lands on the other instance runs programs, and approvals resume where their program waits", async () => {
    const { a, b } = await twoInstances({ destructive: { store: "ask" } });
    const landed: string[] = [];
    const client = await roundRobinClient("round-robin-agent", [a.url, b.url], landed);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({ name: "execute_code", arguments: { code: `return (await lab.echo({ message: "n${i}" })).message;` } });
        expect(result.structuredContent).toMatchObject({ value: `n${i}` });
      }
      // Asked on one instance, answered (the retried call) on the other: the program resumes where it waits.
      for (let i = 0; i < 4; i++) {
        const order = await client.callTool({ name: "execute_code", arguments: { code: ORDER } });
        expect(order.structuredContent).toMatchObject({ value: { before: "first" }, calls: { total: 2, failed: 1 } });
        expect(JSON.stringify(order.structuredContent)).toContain("cart-nope");
      }
      expect(new Set(landed).size).toBe(2);
      // Each program ran once, on one instance: 6 + 4 runs in all.
      const ended = [...a.feed, ...b.feed].filter((u) => u.done);
      expect(ended).toHaveLength(10);
      expect(a.feed.filter((u) => u.done).length).toBeGreaterThan(0);
      expect(b.feed.filter((u) => u.done).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("a task started on one instance is read, answered and cancelled on the other; another client cannot see it", async () => {
    const { a, b } = await twoInstances({ taskAfterMs: 200, destructive: { store: "ask" } });
    const call = (url: string, code: string) =>
      postModern(
        url,
        {
          method: "tools/call",
          params: { name: "execute_code", arguments: { code }, _meta: meta("tasker", { elicitation: { form: {} }, extensions: TASKS }) },
        },
        "execute_code",
      );
    const task = (url: string, method: string, taskId: string, extra: Record<string, unknown> = {}, who = "tasker") =>
      postModern(url, { method, params: { taskId, ...extra, _meta: meta(who, { extensions: TASKS }) } }, taskId);

    // Runs on a, ends there; b reads it to the end.
    const started = await call(a.url, `await lab.sleep({ ms: 600 }); return (await lab.echo({ message: "done" })).message;`);
    expect(started.json.result?.resultType).toBe("task");
    const taskId = String(started.json.result?.taskId);
    const first = await task(b.url, "tasks/get", taskId);
    expect(first.json.result).toMatchObject({ taskId, status: "working" });
    await expect.poll(async () => (await task(b.url, "tasks/get", taskId)).json.result?.status, { timeout: 10_000 }).toBe("completed");
    const done = await task(b.url, "tasks/get", taskId);
    expect(done.json.result?.result).toMatchObject({ structuredContent: { value: "done" } });
    expect(JSON.stringify((await task(b.url, "tasks/get", taskId, {}, "someone-else")).json)).toContain("Unknown task");

    // Its question is answered on b; the program on a goes on.
    const asking = await call(
      a.url,
      `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`,
    );
    const askingId = String(asking.json.result?.taskId);
    await expect.poll(async () => (await task(b.url, "tasks/get", askingId)).json.result?.status, { timeout: 10_000 }).toBe("input_required");
    const waiting = (await task(b.url, "tasks/get", askingId)).json.result?.inputRequests as Record<string, unknown>;
    const [key] = Object.keys(waiting);
    const updated = await task(b.url, "tasks/update", askingId, { inputResponses: { [key ?? ""]: { action: "accept", content: { approve: true } } } });
    expect(updated.json.error).toBeUndefined();
    // b's record already says it goes on: the answer is not asked again.
    expect((await task(b.url, "tasks/get", askingId)).json.result?.status).not.toBe("input_required");
    await expect.poll(async () => (await task(b.url, "tasks/get", askingId)).json.result?.status, { timeout: 10_000 }).toBe("completed");
    expect(JSON.stringify((await task(b.url, "tasks/get", askingId)).json.result?.result)).toContain("cart-nope");

    // Cancelled on b: the sandbox run on a stops, its calls stop at once.
    const long = await call(a.url, `for (let i = 0; i < 40; i++) await lab.sleep({ ms: 100 }); return "finished";`);
    const longId = String(long.json.result?.taskId);
    const cancelled = await task(b.url, "tasks/cancel", longId);
    expect(cancelled.json.error).toBeUndefined();
    expect((await task(b.url, "tasks/get", longId)).json.result?.status).toBe("cancelled");
    await expect
      .poll(
        () =>
          a.feed
            .filter((u) => u.done)
            .at(-1)
            ?.record.events.at(-1),
        { timeout: 5_000 },
      )
      .toMatchObject({ type: "end", ok: false });
    const calls =
      a.feed
        .filter((u) => u.done)
        .at(-1)
        ?.record.events.filter((e) => e.type === "call-start").length ?? 0;
    expect(calls).toBeLessThan(40);
  });

  it("an instance that stops: its running tasks read as failed with words on the other, its paused approvals are answered with why", async () => {
    const { a, b } = await twoInstances({ taskAfterMs: 200, destructive: { store: "ask" } });
    const started = await postModern(
      a.url,
      {
        method: "tools/call",
        params: { name: "execute_code", arguments: { code: `await lab.sleep({ ms: 5000 }); return 1;` }, _meta: meta("tasker", { extensions: TASKS }) },
      },
      "execute_code",
    );
    const taskId = String(started.json.result?.taskId);
    const paused = await postModern(
      a.url,
      { method: "tools/call", params: { name: "execute_code", arguments: { code: ORDER }, _meta: meta("asker", { elicitation: { form: {} } }) } },
      "execute_code",
    );
    expect(paused.json.result?.resultType).toBe("input_required");

    await a.cluster.close();
    const read = await postModern(b.url, { method: "tasks/get", params: { taskId, _meta: meta("tasker", { extensions: TASKS }) } }, taskId);
    expect(read.json.result).toMatchObject({ status: "failed" });
    expect(String(read.json.result?.statusMessage)).toContain("instance of this server that ran this program stopped");

    const answered = await approve(b.url, paused);
    expect(answered.json.result?.isError).toBe(true);
    expect(JSON.stringify(answered.json.result?.content)).toContain("stopped (it was restarted or crashed)");
  });

  it("a requestState sealed by an instance with another token is refused", async () => {
    const { a, b } = await twoInstances({ destructive: { store: "ask" } }, "another-token-0123456789abcdef01234567");
    const paused = await postModern(
      a.url,
      { method: "tools/call", params: { name: "execute_code", arguments: { code: ORDER }, _meta: meta("asker", { elicitation: { form: {} } }) } },
      "execute_code",
    );
    const moved = await approve(b.url, paused);
    expect(moved.json.error?.code).toBe(-32602);
  });
});
