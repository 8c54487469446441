/**
 * Streaming MCP proxy for servers without CORS. The target URL travels in `x-mcp-target`;
 * see lib/mcp/proxy.ts for what is forwarded and lib/mcp/proxy-guard.ts for what is refused.
 * Configured by MCP_PROXY_ALLOW (comma-separated allow-list for private hosts),
 * MCP_PROXY_ALLOW_ONLY=1 and MCP_PROXY_TIMEOUT_MS.
 */
import { handleProxyRequest, proxyOptionsFromEnv } from "@/lib/mcp/proxy";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const options = proxyOptionsFromEnv(process.env);

async function handle(request: Request): Promise<Response> {
  return handleProxyRequest(request, options);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
