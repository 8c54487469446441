/**
 * Streaming MCP proxy for servers without CORS. The target URL travels in `x-mcp-target`;
 * see lib/mcp/proxy/server/proxy.ts for what is forwarded, the local and hosted rules and the caps, and
 * lib/net/proxy-guard.ts for what is refused. In hosted mode each client gets
 * MCP_PROXY_RATE_PER_MINUTE requests (default 240) and all clients together
 * MCP_PROXY_GLOBAL_RATE_PER_MINUTE (default 6 000).
 */
import { proxyRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = proxyRoute;
export const POST = proxyRoute;
export const DELETE = proxyRoute;
