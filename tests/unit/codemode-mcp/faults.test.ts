/**
 * The code-mode MCP server under faults (issue 28): a stdio server killed mid-load comes back
 * by itself and calls recover; spinning programs cannot starve normal ones; sessions a client
 * closed are gone and one client cannot take every session. Real servers, real QuickJS threads,
 * SDK clients over loopback HTTP.
 */
import { describe, expect, it, vi } from "vitest";
import type { HttpEndpointOptions } from "@/lib/codemode-mcp/node/http-endpoint";
import { codeModeHarness, execute, HARNESS_TOKEN as TOKEN, textOf } from "./fixtures";

const { serve: serveWith, connect } = codeModeHarness();
const serve = (codeMode: Record<string, unknown>, endpoint: Partial<HttpEndpointOptions> = {}) => serveWith(codeMode, { endpoint });

describe("a stdio server that dies", () => {
  it("is started again by itself; meanwhile its calls fail at once saying so, and the program can retry", async () => {
    const { url, server } = await serve({ maxConcurrent: 2 });
    const client = await connect(url, "restart-agent");
    const before = server.stdioStates().memory;
    if (before?.state !== "up" || before.pid === null) throw new Error(`memory is not up: ${JSON.stringify(before)}`);
    expect(
      textOf(await execute(client, `await memory.create_entities({ entities: [{ name: "a", entityType: "t", observations: [] }] }); return "ok";`)),
    ).toContain("ok");

    // Killed while a load of calls is running.
    const load = execute(
      client,
      `const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => memory.read_graph({})));
return results.filter((r) => r.status === "rejected").map((r) => r.reason.message).slice(0, 1);`,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.kill(before.pid, "SIGKILL");
    await load;
    // The first restart waits 500 ms: long enough to see it down.
    await vi.waitFor(() => expect(server.stdioStates().memory?.state).toBe("down"), { timeout: 5_000, interval: 10 });
    // A call while it is down says what is going on, not "Not connected".
    const refused = await execute(client, `try { await memory.read_graph({}); return "answered"; } catch (e) { return e.message; }`);
    expect(textOf(refused)).toMatch(/is down: its process ended\. It is being started again \(next attempt in 1 s\)/);

    // It comes back in a new process, and calls work again with no restart of the app.
    await vi.waitFor(() => expect(server.stdioStates().memory).toMatchObject({ state: "up", restarts: 1 }), { timeout: 15_000, interval: 50 });
    const after = server.stdioStates().memory;
    expect(after?.state === "up" && after.pid).not.toBe(before.pid);
    const recovered = await execute(client, `const g = await memory.read_graph({}); return Array.isArray(g.entities);`);
    expect(recovered.isError).toBeFalsy();
    expect(textOf(recovered)).toContain("true");
  });
});

describe("fair shares on the thread pool", () => {
  it("one session's spinning programs do not hold up another session's normal ones", async () => {
    const { url } = await serve({ maxConcurrent: 2, queueLimit: 200, limits: { cpuMs: 300 } });
    const flood = await connect(url, "spinner");
    const other = await connect(url, "normal");
    const order: string[] = [];
    const spinning = Array.from({ length: 30 }, () => execute(flood, "while (true) {}").then(() => order.push("spin")));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const normal = await Promise.all(Array.from({ length: 30 }, (_, i) => execute(other, `return ${i};`).then((r) => (order.push("normal"), r))));
    expect(normal.every((r) => !r.isError)).toBe(true);
    // The ones running when the normal programs came, and at most a couple more, finished first.
    expect(order.lastIndexOf("normal") - 29).toBeLessThanOrEqual(4);
    await Promise.all(spinning);
  }, 60_000);
});

/** An initialize POST as a plain HTTP client sends it; the session id it got, or the status. */
async function rawInitialize(url: string, headers: Record<string, string> = {}): Promise<{ status: number; session: string | null }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await response.body?.cancel();
  return { status: response.status, session: response.headers.get("mcp-session-id") };
}

describe("sessions", () => {
  it("a session an SDK client closed (no DELETE) is gone after the grace period", async () => {
    const { url, endpoint } = await serve({}, { closeGraceMs: 200 });
    const keep = await connect(url, "stays");
    const leaving = await Promise.all([connect(url, "leaves-1"), connect(url, "leaves-2")]);
    expect(endpoint.sessionCount).toBe(3);
    // SDK clients open their standalone GET stream just after initializing.
    await vi.waitFor(() => expect(endpoint.streamCount).toBe(3), { timeout: 5_000, interval: 20 });
    await Promise.all(leaving.map((c) => c.close()));
    await vi.waitFor(() => expect(endpoint.sessionCount).toBe(1), { timeout: 5_000, interval: 50 });
    // The one that stayed still works.
    expect(textOf(await execute(keep, "return 41 + 1;"))).toContain("42");
  });

  it("one client cannot take every session: past its cap its oldest session ends, and other clients still get in", async () => {
    const { url, endpoint } = await serve({}, { maxSessionsPerClient: 3, maxSessions: 5, clientOf: (r) => r.headers.get("x-test-client") ?? "" });
    const greedy = [];
    for (let i = 0; i < 8; i++) greedy.push(await rawInitialize(url, { "x-test-client": "greedy" }));
    expect(greedy.every((g) => g.status === 200 && g.session)).toBe(true);
    expect(endpoint.sessionCount).toBe(3);
    // Its first sessions were ended to make room: the server no longer knows them.
    const first = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": greedy[0]!.session!,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(first.status).toBe(404);
    expect((await rawInitialize(url, { "x-test-client": "polite" })).status).toBe(200);
    expect((await rawInitialize(url, { "x-test-client": "third" })).status).toBe(200);
    expect(endpoint.sessionCount).toBe(5);
    // All five taken by three clients: the next new client is told to come back (503), not hung.
    expect((await rawInitialize(url, { "x-test-client": "fourth" })).status).toBe(503);
  });
});
