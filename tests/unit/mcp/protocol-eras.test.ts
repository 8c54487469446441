/**
 * The page's connections speak both protocol eras (docs/mcp-client.md, "Protocol eras"): a
 * strict 2026-07-28 server built on the v2 server package (no sessions, no `initialize`), and
 * the 2025-11-25 servers people still run, each found without being told, the verdict
 * remembered; multi-round-trip input reaches the same elicitation handler the 2025 servers' requests do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type ConnectOptions, type McpConnection } from "@/lib/mcp/connection";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import type { ServerConfig } from "@/lib/mcp/types";
import { startLoopbackServer } from "@/lib/http/node/loopback-server";
import { startModernServer, type ModernServer } from "../../fixtures/mcp/modern-server";
import { adderServer, startMcpHttpServer, type StatefulHost } from "../../fixtures/mcp/test-servers";

let modern: ModernServer;
let legacy: StatefulHost;
const open: McpConnection[] = [];
beforeAll(async () => {
  [modern, legacy] = await Promise.all([startModernServer({ tasks: false }), startMcpHttpServer(() => adderServer("old"), { stateful: true })]);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all([modern.close(), legacy.close()]);
});

const http = (url: string): ServerConfig => ({ id: url, name: "s", transport: "streamable-http", url, headers: {}, enabled: true });
const options = (extra: Partial<ConnectOptions> = {}): ConnectOptions => ({
  baseUrl: "https://play.example",
  proxyUrl: "/api/mcp/proxy",
  via: "direct",
  timeoutMs: 5_000,
  ...extra,
});
async function connect(url: string, extra: Partial<ConnectOptions> = {}): Promise<McpConnection> {
  const connection = await connectToServer(http(url), options(extra));
  open.push(connection);
  return connection;
}

describe("protocol eras", () => {
  it("a strict 2026-07-28 server: connects without initialize, lists and calls its tools", async () => {
    const before = modern.methods.length;
    const connection = await connect(`${modern.url}/mcp`);
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect(connection.serverInfo).toMatchObject({ name: "modern", version: "2.0.0" });
    expect((await connection.listTools()).map((t) => t.name)).toEqual(["echo", "two_questions", "endless"]);
    const result = await connection.callTool("echo", { message: "hello" });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    const asked = modern.methods.slice(before);
    expect(asked).toContain("server/discover");
    expect(asked).not.toContain("initialize");
  });

  it("the same server refuses a client that only speaks 2025: what this page met before it spoke 2026-07-28", async () => {
    const error = await connectToServer(http(`${modern.url}/mcp`), options({ era: "legacy" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(/2026-07-28/);
  });

  it("multi-round-trip input: two rounds of elicitation reach the page's handler, and the retries carry the answers", async () => {
    const asked: string[] = [];
    const connection = await connect(`${modern.url}/mcp`, {
      elicit: (_config, params) => {
        asked.push(params.message);
        const content: Record<string, string> = params.message.startsWith("Your name") ? { name: "Ada" } : { colour: "green" };
        return Promise.resolve({ action: "accept" as const, content });
      },
    });
    const result = await connection.callTool("two_questions", {});
    expect(asked).toEqual(["Your name?", "Your colour, Ada?"]);
    expect(result.structuredContent).toEqual({ name: "Ada", colour: "green" });
  });

  it("a 2025-11-25 server: found by the probe, spoken to with a session; the verdict is remembered, so a reconnect asks no probe", async () => {
    const probes = () => legacy.servers.length;
    const first = await connect(`${legacy.url}/mcp`);
    expect(first.protocolVersion).toBe("2025-11-25");
    expect((await first.callTool("add", { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    await first.close();
    const seen: string[] = [];
    const second = await connect(`${legacy.url}/mcp`, {
      fetch: async (input, init) => {
        if (typeof init?.body === "string") seen.push((JSON.parse(init.body) as { method?: string }).method ?? "");
        return fetch(input, init);
      },
    });
    expect(second.protocolVersion).toBe("2025-11-25");
    expect(seen[0]).toBe("initialize");
    expect(seen).not.toContain("server/discover");
    expect(probes()).toBe(2);
  });

  it("forcing 2026-07-28 on a 2025-only server fails with an error that says which era was asked for", async () => {
    const error = (await connectToServer(http(`${legacy.url}/mcp?forced`), options({ era: "modern" })).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/2026-07-28/);
  });

  it("the server's own era setting drives the connect: legacy is refused by the strict server, modern skips the probe", async () => {
    const methods = modern.methods.length;
    const refused = (await connectToServer({ ...http(`${modern.url}/mcp`), protocolEra: "legacy" }, options()).catch((e: unknown) => e)) as ConnectionError;
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused.kind).toBe("protocol");
    expect(modern.methods.slice(methods)).toContain("initialize");
    const pinned = await connectToServer({ ...http(`${modern.url}/mcp?pinned`), protocolEra: "modern" }, options());
    open.push(pinned);
    expect(pinned.protocolVersion).toBe("2026-07-28");
    // A connect may still choose for itself (tests, hosts): its own era wins over the setting.
    const forced = (await connectToServer({ ...http(`${modern.url}/mcp?again`), protocolEra: "modern" }, options({ era: "legacy" })).catch(
      (e: unknown) => e,
    )) as ConnectionError;
    expect(forced).toBeInstanceOf(ConnectionError);
  });

  it("a server whose rounds never end: the call stops after the SDK's cap of rounds with an error, the person asked a bounded number of times", async () => {
    let asked = 0;
    const connection = await connect(`${modern.url}/mcp`, {
      elicit: () => {
        asked += 1;
        return Promise.resolve({ action: "accept" as const, content: { ok: true } });
      },
    });
    const error = (await connection.callTool("endless", {}).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/still required input after 10 rounds/);
    expect(asked).toBe(10);
  });

  it("a server that claims 2026-07-28 and answers nonsense to server/discover: a protocol error, not a hang", async () => {
    const liar = await startLoopbackServer(async (request) => {
      const body = (await request.json()) as { id?: number; method?: string };
      if (body.method === "server/discover") return Response.json({ jsonrpc: "2.0", id: body.id, result: { supportedVersions: "yes", nonsense: true } });
      return Response.json({ jsonrpc: "2.0", id: body.id ?? null, error: { code: -32601, message: "no" } });
    });
    try {
      const error = (await connectToServer(http(`${liar.url}/mcp`), options()).catch((e: unknown) => e)) as ConnectionError;
      expect(error).toBeInstanceOf(ConnectionError);
      // The SDK does not take the answer as 2026-07-28 and falls back to initialize, which this server refuses too.
      expect(error.kind).toBe("protocol");
      expect(error.message).toMatch(/The MCP handshake with .* failed: no/);
    } finally {
      await liar.close();
    }
  });
});
