import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import { MAX_ENTRIES, MAX_PER_SECOND, ServerLogStore } from "@/lib/mcp/server-logs";
import type { ServerConfig } from "@/lib/mcp/types";
import { adderServer, askingServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

describe("ServerLogStore", () => {
  it("keeps MAX_PER_SECOND messages a second and says how many a flood dropped", () => {
    let now = 5_000;
    const store = new ServerLogStore(() => now);
    for (let i = 0; i < MAX_PER_SECOND + 50; i++) store.add("s", { level: "info", data: `m${i}` });
    expect(store.entries("s")).toHaveLength(MAX_PER_SECOND);
    now = 6_000;
    store.add("s", { level: "error", data: "after" });
    const entries = store.entries("s");
    expect(entries.at(-2)).toMatchObject({ level: "dropped", text: "50 more messages in one second were dropped (the server floods its log)." });
    expect(entries.at(-1)).toMatchObject({ level: "error", text: "after" });
  });

  it("keeps the last MAX_ENTRIES, removes secrets, caps long text", () => {
    let now = 0;
    const store = new ServerLogStore(() => (now += 1_000));
    for (let i = 0; i < MAX_ENTRIES + 10; i++) store.add("s", { level: "info", data: i });
    expect(store.entries("s")).toHaveLength(MAX_ENTRIES);
    expect(store.entries("s")[0]?.text).toBe("10");
    const entry = store.add("s", { level: "info", data: { auth: "Bearer sk-abcdefghijklmnopqrst", long: "x".repeat(5_000) } });
    expect(entry?.text).not.toContain("sk-abcdefghijklmnopqrst");
    expect(entry?.text.length).toBeLessThanOrEqual(2_001);
  });
});

describe("logging over a real connection", () => {
  const config: ServerConfig = { id: "asker", name: "asker", transport: "streamable-http", url: "", enabled: true };

  it("delivers log messages, honours logging/setLevel, and survives a flood", async () => {
    const store = new ServerLogStore();
    const connection = await connectToServer(
      { ...config, url: host.url },
      { baseUrl: new URL(host.url).origin, proxyUrl: "/api/mcp/proxy", via: "direct", onLog: (c, params) => void store.add(c.name, params) },
    );
    await connection.callTool("chatty", { count: 3 });
    expect(store.entries("asker").map((e) => `${e.level}:${e.text}`)).toEqual([
      "info:message 0",
      "info:message 1",
      "info:message 2",
      'warning:{"note":"almost done","token":"Bearer [redacted]"}',
    ]);
    await connection.setLogLevel("warning");
    await connection.callTool("chatty", { count: 3 });
    expect(
      store
        .entries("asker")
        .slice(4)
        .map((e) => e.level),
    ).toEqual(["warning"]);
    await connection.setLogLevel("info");
    // 3 000 messages in a burst: the call still answers, and the store keeps a bounded share.
    const result = await connection.callTool("chatty", { count: 3_000 });
    await connection.close();
    expect(result.isError).toBeFalsy();
    expect(store.entries("asker").length).toBeLessThanOrEqual(MAX_ENTRIES);
  });

  it("a server without the logging capability refuses setLevel with a clear error", async () => {
    const plain = await startMcpHttpServer(() => adderServer());
    const connection = await connectToServer({ ...config, url: plain.url }, { baseUrl: new URL(plain.url).origin, proxyUrl: "/api/mcp/proxy", via: "direct" });
    const error = await connection.setLogLevel("debug").catch((e: unknown) => e);
    await connection.close();
    await plain.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(/does not declare the logging capability/);
  });
});
