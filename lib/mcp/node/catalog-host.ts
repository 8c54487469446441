/**
 * Serves a catalog of captured tools on loopback (the large catalog, issue 31): each server at
 * /catalog-mcp/<name> over Streamable HTTP, listing its tools exactly as captured and answering
 * each call deterministically (lib/mcp/catalog-answer.ts: structured content valid for the
 * tool's output schema, else a small record), so suites over servers that are not running here
 * run offline. Stateless, like the demo servers. Node (tests, suites, benchmarks).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
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
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...entry.tools] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
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
  const byName = new Map(servers.map((s) => [s.name, s]));
  const loopback = await startLoopbackServer(async (request) => {
    const name = PATH.exec(new URL(request.url).pathname)?.[1];
    const entry = name === undefined ? undefined : byName.get(decodeURIComponent(name));
    if (!entry) return new Response("not found", { status: 404 });
    if (request.method !== "POST") return new Response("use POST", { status: 405, headers: { allow: "POST" } });
    const server = serverFor(entry);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  });
  return { ...loopback, urlFor: (name) => `${loopback.url}/catalog-mcp/${encodeURIComponent(name)}` };
}
