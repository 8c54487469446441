/**
 * The code-mode MCP server over Streamable HTTP (the endpoint the app serves at
 * /api/codemode/mcp), hosted on loopback: SDK clients with and without the bearer token, the
 * refuse policy, isolation under 50 concurrent executions from 5 clients, and the busy error
 * beyond the cap.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CodeModeHttpEndpoint } from "@/lib/codemode-mcp/node/http-endpoint";
import { RunFeed, type FeedUpdate } from "@/lib/codemode-mcp/run-feed";
import { codeModeHarness, CONFIG_SECRET, execute, HARNESS_TOKEN as TOKEN, PARALLEL_PROGRAM, textOf } from "./fixtures";

const { serve: serveWith, connect } = codeModeHarness();
const serve = (codeMode: Record<string, unknown>, feed?: RunFeed) => serveWith(codeMode, feed ? { feed } : {});

let main: { url: string; endpoint: CodeModeHttpEndpoint };
const feed = new RunFeed();
const published: FeedUpdate[] = [];

beforeAll(async () => {
  feed.subscribe((u) => published.push(u));
  main = await serve({ destructive: { store: "refuse" }, maxConcurrent: 2, queueLimit: 64 }, feed);
}, 60_000);

describe("code-mode MCP server over Streamable HTTP", () => {
  it("refuses a caller without the bearer token (401), and one with a wrong token", async () => {
    const bare = await fetch(main.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/);
    await expect(connect(main.url, "intruder", "wrong-token")).rejects.toThrow();
  });

  it("an SDK client runs a program over the stdio and HTTP servers in parallel; the run is published to the feed, code and waterfall included", async () => {
    const client = await connect(main.url, "http-agent");
    const result = await execute(client, PARALLEL_PROGRAM, { who: "Grace" });
    expect(result.structuredContent).toMatchObject({ value: { names: ["Grace"], echo: "hello Grace" }, calls: { total: 3 } });
    const done = published.filter((u) => u.done).at(-1);
    expect(done?.record.title).toBe("http-agent · execute_code");
    expect(done?.record.events.find((e) => e.type === "start")).toMatchObject({ code: PARALLEL_PROGRAM });
    expect(done?.record.events.filter((e) => e.type === "call-start").map((e) => (e.type === "call-start" ? `${e.namespace}.${e.name}` : ""))).toEqual([
      "memory.create_entities",
      "lab.echo",
      "memory.read_graph",
    ]);
    expect(done?.record.events.at(-1)).toMatchObject({ type: "end", ok: true });
  });

  it("secrets of the config (headers, env) reach neither the program, its result, its console nor the published record", async () => {
    const client = await connect(main.url, "curious-agent");
    const result = await execute(
      client,
      `const seen = [];
for (const name of Object.getOwnPropertyNames(globalThis)) { try { seen.push(name + "=" + JSON.stringify(globalThis[name])); } catch { seen.push(name); } }
console.log(seen.join("\\n"));
const echo = await lab.echo({ message: "who am I" });
return { seen, echo, env: typeof process, fn: String(lab.echo) };`,
    );
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(CONFIG_SECRET);
    const record = published.filter((u) => u.done).at(-1)?.record;
    expect(record?.title).toBe("curious-agent · execute_code");
    expect(JSON.stringify(record)).not.toContain(CONFIG_SECRET);
  });

  it("policy refuse: the destructive call is never sent and the program reads why", async () => {
    const client = await connect(main.url, "refused-agent");
    const result = await execute(
      client,
      `try { await store.place_order({ cartId: "c", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); return "sent"; } catch (e) { return e.message; }`,
    );
    expect(result.structuredContent).toMatchObject({ value: expect.stringContaining("is destructive and was not called") as unknown });
  });

  it("mocks from the config answer without the server, and arguments are validated against the tool's schema before any call", async () => {
    const mocked = await serve({
      destructive: { store: "allow" },
      mocks: {
        store: { place_order: { kind: "value", value: { orderId: "mock-1" } } },
        lab: { echo: { kind: "script", source: "return { message: args.message.toUpperCase() }" } },
      },
    });
    const client = await connect(mocked.url, "mocking-agent");
    const result = await execute(
      client,
      `const order = await store.place_order({ cartId: "c", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" });
const echo = await lab.echo({ message: "quiet" });
let invalid;
try { await lab.sleep({ ms: "long" }); } catch (e) { invalid = e.message; }
return { order: order.orderId, echo: echo.message, invalid };`,
    );
    expect(result.structuredContent).toMatchObject({ value: { order: "mock-1", echo: "QUIET", invalid: expect.stringMatching(/ms/) as unknown } });
  });

  it("a client without elicitation under policy ask is refused with the reason", async () => {
    const ask = await serve({ destructive: { store: "ask" } });
    const client = await connect(ask.url, "no-elicitation");
    const result = await execute(client, `await store.place_order({ cartId: "c", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" });`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("cannot be asked");
  });

  it("50 concurrent executions from 5 clients return their own, unmixed results", async () => {
    const agents = await Promise.all([1, 2, 3, 4, 5].map((n) => connect(main.url, `agent-${n}`)));
    const runs = agents.flatMap((client, a) =>
      Array.from({ length: 10 }, (_, i) =>
        execute(
          client,
          `const r = await lab.echo({ message: tag }); const s = await lab.sleep({ ms: 5 }); return { tag: r.message, who: me, slept: s.sleptMs };`,
          {
            tag: `a${a}-r${i}`,
            me: a,
          },
        ).then((result) => ({ a, i, result })),
      ),
    );
    const results = await Promise.all(runs);
    for (const { a, i, result } of results) {
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ value: { tag: `a${a}-r${i}`, who: a, slept: 5 }, calls: { total: 2 } });
    }
    expect(main.endpoint.sessionCount).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("beyond the cap and its queue, callers get a clear busy error", async () => {
    const tight = await serve({ maxConcurrent: 1, queueLimit: 1 });
    const client = await connect(tight.url, "greedy");
    const results = await Promise.all(Array.from({ length: 5 }, () => execute(client, `await lab.sleep({ ms: 300 }); return "slept";`)));
    const busy = results.filter((r) => r.isError);
    expect(results.filter((r) => !r.isError)).toHaveLength(2);
    expect(busy).toHaveLength(3);
    for (const r of busy) expect(textOf(r)).toMatch(/^busy error: Busy: 1 program is running and 1 waiting/);
  }, 30_000);

  it("an unknown session is 404 (the client must initialize again)", async () => {
    const response = await fetch(main.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "mcp-session-id": "nope",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    expect(response.status).toBe(404);
  });
});
