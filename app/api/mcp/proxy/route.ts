/**
 * Streaming MCP proxy for servers without CORS. The target URL travels in `x-mcp-target`;
 * see lib/mcp/server/proxy.ts for what is forwarded, the local and hosted rules and the caps, and
 * lib/net/proxy-guard.ts for what is refused. In hosted mode each client gets
 * MCP_PROXY_RATE_PER_MINUTE requests (default 240) and all clients together
 * MCP_PROXY_GLOBAL_RATE_PER_MINUTE (default 6 000).
 */
import { clientKey } from "@/lib/http/server/client-address";
import { appMode } from "@/lib/http/server/deployment";
import { enforceLimits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/server/route";
import { proxyLimiters } from "@/lib/mcp/server/proxy-limits";
import { handleProxyRequest, proxyOptionsFor } from "@/lib/mcp/server/proxy";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// OAuth token and revocation requests are forms (see request-guard.ts for why that is safe here).
const handle = route({ surface: "proxy", json: "or-form" }, async (request) => {
  const mode = appMode(request, process.env);
  if (mode === "hosted") {
    const limits = proxyLimiters(process.env);
    await enforceLimits("proxy", [
      [limits.perClient, clientKey(request.headers, process.env)],
      [limits.global, "*"],
    ]);
  }
  return handleProxyRequest(request, proxyOptionsFor(mode, process.env));
});

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
