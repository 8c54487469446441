/**
 * The code-mode MCP server speaks both protocol eras on one endpoint (docs/ARCHITECTURE.md, "The
 * code-mode MCP server"): a 2026-07-28 client (the v2 SDK's, negotiating) gets stateless
 * requests, no session, and runs programs; a 2025-11-25 client (the v1 SDK's) on the same
 * endpoint keeps its session. Over stdio the real command serves a 2026-07-28 client too.
 */
import { describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN, codeModeHarness, execute, HARNESS_TOKEN, PARALLEL_PROGRAM, writeConfig } from "./fixtures";

const harness = codeModeHarness();

function modernClient(name: string): Client {
  return new Client({ name, version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
}

const ORDER = `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;

describe("the code-mode server's protocol eras", () => {
  it("over HTTP: a 2026-07-28 client runs programs with no session; a 2025 client on the same endpoint keeps one", async () => {
    const { url, endpoint } = await harness.serve({ destructive: { store: "ask" } });
    const seen: Array<{ method: string; session: string | null }> = [];
    const client = modernClient("modern-agent");
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${HARNESS_TOKEN}` } },
        fetch: async (input, init) => {
          const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : {};
          const response = await fetch(input, init);
          seen.push({ method: body.method ?? "", session: response.headers.get("mcp-session-id") });
          return response;
        },
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["execute_code", "search_tools"]);
      const result = await client.callTool({ name: "execute_code", arguments: { code: PARALLEL_PROGRAM, data: { who: "Grace" } } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ value: { echo: "hello Grace" }, calls: { total: 3, failed: 0 } });
      // A destructive call under "ask": this era cannot be asked mid-call, and the refusal says so.
      const order = await client.callTool({ name: "execute_code", arguments: { code: ORDER } });
      expect(String((order.structuredContent as { value?: unknown } | undefined)?.value)).toContain("a 2026-07-28 client cannot be asked");
      expect(seen.map((s) => s.method)).toContain("server/discover");
      expect(seen.map((s) => s.method)).not.toContain("initialize");
      expect(seen.every((s) => s.session === null)).toBe(true);
      expect(endpoint.sessionCount).toBe(0);

      const old = await harness.connect(url, "legacy-agent");
      expect(old.getServerVersion()?.name).toBe("code-mode-playground");
      expect((await execute(old, "return 1 + 1;")).structuredContent).toMatchObject({ value: 2 });
      expect(endpoint.sessionCount).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("over HTTP: a request without the token is refused in either era", async () => {
    const { url } = await harness.serve({});
    const client = modernClient("no-token");
    const error = await client.connect(new StreamableHTTPClientTransport(new URL(url))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/401|bearer token|Unauthorized/i);
    await client.close().catch(() => undefined);
  });

  it("over stdio: the real command serves a 2026-07-28 client (pinned, so the command starts once)", async () => {
    const config = writeConfig((name) => harness.demo().urlFor(name));
    const client = new Client({ name: "stdio-modern", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--config", config], stderr: "pipe" }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "execute_code", arguments: { code: PARALLEL_PROGRAM, data: { who: "Lin" } } });
      expect(result.structuredContent).toMatchObject({ value: { names: ["Lin"], echo: "hello Lin" } });
    } finally {
      await client.close();
    }
  });
});
