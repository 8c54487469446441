/**
 * Local (stdio) servers of both eras from the page (docs/mcp-client.md, "Protocol eras"): the
 * page's own connector over the bridge's real routes on loopback. The bridge asks a new process
 * `server/discover` on its own pipe, so a command runs once per start; a strict 2026-07-28
 * server is reached statelessly (each request on its own stream), the reference servers in a
 * 2025 session; a server that exits on the question is started once more without it within the
 * same start, and the next start does not ask; a forced era asks nothing.
 */
import { describe, expect, it } from "vitest";
import { loggedStdio, stdioFixture } from "../../../fixtures/mcp/logged-stdio";
import { connectToServer, type ConnectOptions } from "@/lib/mcp/connection";
import type { FetchLike } from "@/lib/mcp/proxy/proxy-fetch";
import { withStdioBridge } from "@/lib/mcp/stdio/browser/stdio-connector";
import { getStdioSessions } from "@/lib/mcp/stdio/server/stdio-sessions";
import { MEMORY_BIN } from "../../codemode-mcp/fixtures";
import { rawRequest, stdioHostPerFile } from "../../../fixtures/mcp/stdio-host";
import { LOCAL_TOKEN_HEADER } from "@/lib/mcp/stdio/stdio-protocol";

const TOKEN = "local-token-for-eras-0123456789abcdef";
const registry = getStdioSessions();

/** A page whose requests come by channel `channel`, as the browser sends them. */
function page(channel: string): ConnectOptions {
  const fetchAsPage: FetchLike = (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("sec-fetch-site", "same-origin");
    headers.set("x-cmp-channel", channel);
    if ((init?.method ?? "GET") !== "GET") headers.set("origin", stdioHost().url);
    return fetch(url, { ...init, headers });
  };
  return { baseUrl: stdioHost().url, proxyUrl: "/api/mcp/proxy", via: "direct", fetch: fetchAsPage };
}

const connect = withStdioBridge(() => TOKEN, connectToServer);

const stdioHost = stdioHostPerFile(TOKEN);

describe("the page's local servers, both eras", () => {
  it("a strict 2026-07-28 server is reached statelessly, started once, and shared by a second page without asking again", async () => {
    const server = loggedStdio("modern", [stdioFixture("modern-stdio.mjs")]);
    const first = await connect(server, page("tab-1"));
    const second = await connect(server, page("tab-2"));
    try {
      expect(first.protocolVersion).toBe("2026-07-28");
      expect(second.protocolVersion).toBe("2026-07-28");
      expect((await first.listTools()).map((t) => t.name)).toEqual(["echo"]);
      // Both pages at once, with the same request ids of their own: each gets its own answer.
      const [a, b] = await Promise.all([first.callTool("echo", { message: "from tab 1" }), second.callTool("echo", { message: "from tab 2" })]);
      expect([a.content, b.content]).toEqual([[{ type: "text", text: "from tab 1" }], [{ type: "text", text: "from tab 2" }]]);
      expect(server.spawns()).toBe(1);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("the reference memory server gets a 2025 session, found on its own pipe", async () => {
    const server = loggedStdio("memory", [MEMORY_BIN]);
    const connection = await connect(server, page("tab-1"));
    try {
      expect(connection.protocolVersion).toBe("2025-11-25");
      expect((await connection.listTools()).map((t) => t.name)).toContain("read_graph");
      expect(registry.processes).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("a server that exits on the question is started once more within the same start, and its next start does not ask", async () => {
    const server = loggedStdio("fragile", [stdioFixture("exits-on-probe.mjs")]);
    registry.configure({ maxSessions: 1 });
    const first = await connect(server, page("tab-1"));
    expect(first.protocolVersion).toBe("2025-11-25");
    expect((await first.callTool("ping", {})).content).toEqual([{ type: "text", text: "pong" }]);
    await first.close();
    expect(server.spawns()).toBe(2);
    const second = await connect(server, page("tab-1"));
    expect((await second.callTool("ping", {})).content).toEqual([{ type: "text", text: "pong" }]);
    await second.close();
    expect(server.spawns()).toBe(3);
  });

  it("a forced era asks nothing: 2026-07-28 on a strict server connects, 2025-11-25 on it fails saying what it speaks", async () => {
    const pinned = loggedStdio("pinned", [stdioFixture("modern-stdio.mjs")], { protocolEra: "modern" });
    const connection = await connect(pinned, page("tab-1"));
    expect(connection.protocolVersion).toBe("2026-07-28");
    await connection.close();

    const wrong = loggedStdio("wrong", [stdioFixture("modern-stdio.mjs")], { protocolEra: "legacy" });
    const error = (await connect(wrong, page("tab-1")).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/speaks 2026-07-28 and this connection asked for 2025-11-25/);
    expect(error.message).not.toMatch(/check the URL/i);
  });

  it("answers a raw 2026-07-28 request on its own event stream, and a body that is not JSON with a parse error", async () => {
    const server = loggedStdio("raw", [stdioFixture("modern-stdio.mjs")]);
    const connection = await connect(server, page("tab-1"));
    await connection.close();
    const started = await fetch(new URL("/api/mcp/stdio", stdioHost().url), {
      method: "POST",
      headers: { origin: stdioHost().url, "sec-fetch-site": "same-origin", [LOCAL_TOKEN_HEADER]: TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ command: server.command, args: server.args, env: server.env }),
    });
    const { url, era } = (await started.json()) as { url: string; era: string };
    expect(era).toBe("modern");
    const headers = {
      host: new URL(stdioHost().url).host,
      origin: stdioHost().url,
      "sec-fetch-site": "same-origin",
      [LOCAL_TOKEN_HEADER]: TOKEN,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
    };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const target = new URL(url, stdioHost().url).href;
    const notJson = await rawRequest(target, { method: "POST", headers, body: "{not json" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toContain("-32700");
    const answer = await rawRequest(target, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "raw" }, _meta: meta } }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toContain("text/event-stream");
    expect(answer.body).toMatch(/event: message\ndata: .*"id":7.*"text":"raw"/);
  });
});
