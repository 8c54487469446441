/** Serves every demo MCP server on loopback at /api/demo-mcp/<name>, like the Next route (tests and the headless runner). */
import { DEMO_MCP_PATH, handleDemoMcpRequest } from "../http-handler";
import { startLoopbackServer } from "../../http/node/loopback-server";
import type { LoopbackServer } from "../../http/node/loopback-server";

/** Starts the demo host; `urlFor(name)` gives a server's endpoint. */
export async function startDemoHost(): Promise<LoopbackServer & { urlFor(name: string): string }> {
  const server = await startLoopbackServer((request) => {
    const match = DEMO_MCP_PATH.exec(new URL(request.url).pathname);
    if (!match?.[1]) return Promise.resolve(new Response("not found", { status: 404 }));
    return handleDemoMcpRequest(decodeURIComponent(match[1]), request);
  });
  return { ...server, urlFor: (name) => `${server.url}/api/demo-mcp/${name}` };
}
