/**
 * Serves a catalog of captured tools on loopback (the large catalog, issue 31): each server at
 * /catalog-mcp/<name> over Streamable HTTP, listing its tools exactly as captured and answering
 * each call deterministically (lib/demo-servers/catalog-answer.ts: structured content valid for the
 * tool's output schema, else a small record), so suites over servers that are not running here
 * run offline. Stateless and in both protocol eras (the v2 SDK's createMcpHandler: 2026-07-28
 * requests, and 2025-era ones each answered by a fresh server). Node (tests, suites, benchmarks).
 */
import { createMcpHandler, Server, type McpHttpHandler, type Tool } from "@modelcontextprotocol/server";
import { startLoopbackServer, type LoopbackServer } from "../../http/node/loopback-server";
import { catalogAnswer } from "../catalog-answer";

/** One captured server: its name and the tools it listed. */
export interface CatalogHostServer {
  name: string;
  tools: readonly Tool[];
}

const PATH = /^\/catalog-mcp\/([^/?#]+)$/;

function serverFor(entry: CatalogHostServer): Server {
  const server = new Server({ name: entry.name, version: "captured" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: [...entry.tools] }));
  server.setRequestHandler("tools/call", (request) => {
    const tool = entry.tools.find((t) => t.name === request.params.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: `No tool "${request.params.name}" on ${entry.name}.` }] };
    const value = catalogAnswer(entry.name, tool, request.params.arguments ?? {});
    const text = JSON.stringify(value);
    return tool.outputSchema
      ? { structuredContent: value as Record<string, unknown>, content: [{ type: "text", text }] }
      : { content: [{ type: "text", text }] };
  });
  return server;
}

/** Starts the catalog host; `urlFor(name)` gives a server's endpoint. */
export async function startCatalogHost(servers: readonly CatalogHostServer[]): Promise<LoopbackServer & { urlFor(name: string): string }> {
  const handlers = new Map<string, McpHttpHandler>(servers.map((s) => [s.name, createMcpHandler(() => serverFor(s))]));
  const loopback = await startLoopbackServer(async (request) => {
    const name = PATH.exec(new URL(request.url).pathname)?.[1];
    const handler = name === undefined ? undefined : handlers.get(decodeURIComponent(name));
    if (!handler) return new Response("not found", { status: 404 });
    if (request.method !== "POST") return new Response("use POST", { status: 405, headers: { allow: "POST" } });
    return handler.fetch(request);
  });
  return {
    ...loopback,
    urlFor: (name) => `${loopback.url}/catalog-mcp/${encodeURIComponent(name)}`,
    async close() {
      await Promise.all([...handlers.values()].map((handler) => handler.close()));
      await loopback.close();
    },
  };
}
