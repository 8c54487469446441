import { Client as ClientV2, StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import type { McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_SERVER_NAMES, DEMO_SERVERS, getDemoServer } from "@/lib/demo-servers";
import { handleDemoMcpRequest } from "@/lib/demo-servers/http-handler";
import { compileSchema } from "@/lib/mcp/validate";
import { connectClient } from "../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

/** Paths of properties without a description, anywhere in the schema. */
function undescribed(schema: Schema, path: string): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (!child.description) out.push(`${path}.${key}`);
    out.push(...undescribed(child, `${path}.${key}`));
  }
  if (schema.items) out.push(...undescribed(schema.items, `${path}[]`));
  for (const branch of schema.anyOf ?? []) out.push(...undescribed(branch, path));
  return out;
}

const EXPECTED_TOOLS: Record<string, string[]> = {
  shipping: ["list_carriers", "get_quote", "estimate_delivery", "apply_surcharges", "list_shipments", "get_customs_guide"],
  news: ["web_search"],
  store: ["search_stores", "get_menu", "create_cart", "add_to_cart", "validate_order", "place_order"],
  lab: ["echo", "sleep", "fail", "protocol_error", "big", "flaky"],
};

let host: Awaited<ReturnType<typeof startDemoHost>>;
beforeAll(async () => {
  host = await startDemoHost();
});
afterAll(async () => {
  await host.close();
});

describe("demo catalog", () => {
  it("lists every server with prompts and a factory", () => {
    expect(DEMO_SERVERS.map((s) => s.name)).toEqual([...DEMO_SERVER_NAMES]);
    for (const server of DEMO_SERVERS) {
      expect(server.examplePrompts.length).toBeGreaterThan(0);
      expect(server.create().server).toBeDefined();
    }
    expect(getDemoServer("nope")).toBeUndefined();
  });
});

describe.each(DEMO_SERVER_NAMES)("demo server %s over Streamable HTTP", (name) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(host.urlFor(name));
  });
  afterAll(async () => {
    await client.close();
  });

  it("reports its name", () => {
    expect(client.getServerVersion()?.name).toBe(name);
  });

  it("lists the expected tools, each with described input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS[name]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, `${tool.name} outputSchema`).toBe("object");
      expect(undescribed(tool.inputSchema as Schema, `${tool.name}.input`)).toEqual([]);
      expect(undescribed(tool.outputSchema as Schema, `${tool.name}.output`)).toEqual([]);
      expect(compileSchema(tool.inputSchema).ok).toBe(true);
      expect(compileSchema(tool.outputSchema).ok).toBe(true);
      expect(tool.annotations?.readOnlyHint, `${tool.name} annotations`).toBeTypeOf("boolean");
    }
  });
});

describe("demo HTTP handler", () => {
  it("answers OPTIONS with CORS headers that allow the MCP headers and expose the session id", async () => {
    const response = await handleDemoMcpRequest("shipping", new Request("http://x/api/demo-mcp/shipping", { method: "OPTIONS" }));
    expect(response.status).toBe(204);
    const allowed = response.headers.get("access-control-allow-headers") ?? "";
    for (const h of ["mcp-session-id", "mcp-protocol-version", "last-event-id", "authorization", "content-type"]) expect(allowed).toContain(h);
    expect(response.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
  });

  it("answers an unknown name with a 404 JSON error naming the real ones", async () => {
    const response = await handleDemoMcpRequest("weather", new Request("http://x/api/demo-mcp/weather", { method: "POST", body: "{}" }));
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_found:demo_mcp");
    expect(body.error.message).toContain("shipping, news, store, lab");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers GET with 405 (stateless: no standalone stream), which clients accept", async () => {
    const response = await handleDemoMcpRequest("news", new Request("http://x/api/demo-mcp/news", { headers: { accept: "text/event-stream" } }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
  });

  it("answers DELETE (session end) with 200 and CORS headers", async () => {
    const response = await handleDemoMcpRequest("news", new Request("http://x/api/demo-mcp/news", { method: "DELETE" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("adds CORS headers to MCP responses", async () => {
    const response = await fetch(host.urlFor("news"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("content-type")).toContain("application/json");
  });

  it("reuses servers for calls, but never one that an initialize or setLevel touched", async () => {
    const post = (method: string, params: unknown) =>
      handleDemoMcpRequest(
        "lab",
        new Request("http://x/api/demo-mcp/lab", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        }),
      ).then((response) => response.text());
    const echo = () => post("tools/call", { name: "echo", arguments: { message: "hi" } });
    const demo = getDemoServer("lab");
    if (!demo) throw new Error("no lab");
    await echo();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const create = vi.spyOn(demo, "create");
    try {
      for (let i = 0; i < 5; i++) expect(await echo()).toContain('"message\\":\\"hi\\"');
      expect(create).toHaveBeenCalledTimes(0);
      const initialize = { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "visitor", version: "1" } };
      await post("initialize", initialize);
      await post("logging/setLevel", { level: "emergency" });
      expect(create).toHaveBeenCalledTimes(2);
      const touched = create.mock.results.map((r) => r.value as McpServer);
      expect(touched[0]?.server.getClientVersion()).toEqual({ name: "visitor", version: "1" });
      // Neither server the visitor touched ever serves another request, however many come at once.
      const reconnected = touched.map((server) => vi.spyOn(server, "connect"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all(Array.from({ length: 40 }, echo));
      for (const spy of reconnected) expect(spy).not.toHaveBeenCalled();
    } finally {
      create.mockRestore();
    }
  });

  it("answers lab.sleep with an event stream that carries its progress, and other lab calls with one JSON body", async () => {
    const call = (name: string, args: unknown, meta?: unknown) =>
      fetch(host.urlFor("lab"), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } }),
      });
    const echo = await call("echo", { message: "hi" });
    expect(echo.headers.get("content-type")).toContain("application/json");
    expect(((await echo.json()) as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({ message: "hi" });
    const sleep = await call("sleep", { ms: 30 }, { progressToken: "p1" });
    expect(sleep.headers.get("content-type")).toContain("text/event-stream");
    const events = await sleep.text();
    expect(events).toContain('"method":"notifications/progress"');
    expect(events).toContain('"progressToken":"p1"');
    expect(events).toContain('"sleptMs":30');
  });

  it("answers a body that is not JSON with the transport's parse error", async () => {
    const response = await handleDemoMcpRequest(
      "lab",
      new Request("http://x/api/demo-mcp/lab", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{not json",
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Parse error/i);
  });

  it("refuses a body over 1 MB with 413 before parsing it", async () => {
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "x".repeat(2_000_000) } } });
    const response = await handleDemoMcpRequest(
      "lab",
      new Request("http://x/api/demo-mcp/lab", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: huge,
      }),
    );
    expect(response.status).toBe(413);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("demo servers' protocol eras", () => {
  const connectAs = async (name: string, mode: "auto" | "legacy") => {
    const client = new ClientV2({ name: "era-tests", version: "1.0.0" }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(new URL(host.urlFor(name))));
    return client;
  };

  it.each(DEMO_SERVERS.map((demo) => [demo.name, demo.protocol] as const))("%s speaks %s to a client that negotiates", async (name, revision) => {
    const client = await connectAs(name, "auto");
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect((await client.listTools()).tools.length).toBe(EXPECTED_TOOLS[name]?.length);
    } finally {
      await client.close();
    }
  });

  it("2026-07-28 calls reuse pooled servers, as 2025-era calls do", async () => {
    const client = await connectAs("news", "auto");
    const demo = getDemoServer("news");
    if (!demo) throw new Error("no news");
    try {
      await client.callTool({ name: "web_search", arguments: { query: "port" } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const create = vi.spyOn(demo, "create");
      try {
        for (let i = 0; i < 5; i++) await client.callTool({ name: "web_search", arguments: { query: "port" } });
        expect(create).toHaveBeenCalledTimes(0);
      } finally {
        create.mockRestore();
      }
    } finally {
      await client.close();
    }
  });

  it("a 2026-07-28 demo still serves a 2025-era client, through initialize", async () => {
    const client = await connectAs("news", "legacy");
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const result = await client.callTool({ name: "web_search", arguments: { query: "election", limit: 1 } });
      expect((result.structuredContent as { results: unknown[] }).results).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("answers 2026-07-28 lists with cache hints (they never change), and 2025-era lists without", async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(host.urlFor("shipping"), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ result?: { ttlMs?: number; cacheScope?: string; tools?: unknown[] } }>);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const modern = await post(
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } },
    );
    expect(modern.result).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
    expect(modern.result?.tools).toHaveLength(EXPECTED_TOOLS.shipping!.length);
    const legacy = await post({ "mcp-protocol-version": "2025-11-25" }, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(legacy.result?.tools).toHaveLength(EXPECTED_TOOLS.shipping!.length);
    expect(legacy.result).not.toHaveProperty("ttlMs");
  });
});
