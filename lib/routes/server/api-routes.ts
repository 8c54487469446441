/**
 * The page's API routes, defined once: the Next routes under app/api re-export these handlers,
 * and the page's channel (../node/channel-listener.ts) dispatches on `API_ROUTES`, so a request
 * meets the same guard and handler whichever way it came (docs/channel.md, "The channel").
 */
import "server-only";
import { acceptPushedRun, codeModeRunStream } from "../../codemode-mcp/server/run-feed-routes";
import { CHANNEL_ID_HEADER } from "../../channel/channel-protocol";
import { clientKey } from "../../http/server/client-address";
import { appMode } from "../../http/server/deployment";
import type { Env } from "../../http/server/deployment";
import { healthResponse } from "../../http/server/health";
import { enforceLimits } from "../../http/rate-limit";
import { RouteError } from "../../http/route-error";
import { route } from "../../http/server/route";
import { frameResponse } from "../../mcp-apps/server/frame-page";
import { demoMcpRoute } from "../../demo-servers/server/demo-route";
import { proxyLimiters } from "../../mcp/proxy/server/proxy-limits";
import { handleProxyRequest, proxyOptionsFor } from "../../mcp/proxy/server/proxy";
import { assertLocal, readStartRequest, relayStdioRequest, SessionIdSchema, startStdioSession } from "../../mcp/stdio/server/stdio-bridge";
import { handleProvidersRequest } from "../../model/server/server-keys";

/** A route handler as Next calls it: dynamic params arrive as a Promise. */
export type ApiHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

// The chat's handler (the AI SDK, every provider, the tokenizer) loads at the route's first
// request: the server's start and the page's first requests do not wait for it.
const chatHandler = () => import("../../model/server/chat-handler");

/** POST /api/chat: one model step, streamed. */
export const chatRoute = route({ surface: "chat" }, async (request) => (await chatHandler()).handleChatRequest(request, { env: process.env }));

/** GET /api/chat/providers: which providers have a server key. */
export const providersRoute = route({ surface: "chat" }, (request) => handleProvidersRequest(request, process.env));

// OAuth token and revocation requests are forms (see request-guard.ts for why that is safe here).
/** GET/POST/DELETE /api/mcp/proxy: the streaming MCP proxy (lib/mcp/proxy/server/proxy.ts). */
export const proxyRoute = route({ surface: "proxy", json: "or-form" }, async (request) => {
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

/** POST /api/mcp/stdio: starts a local stdio server (local mode, the terminal's token). */
export const stdioStartRoute = route({ surface: "stdio" }, async (request) => {
  assertLocal(request);
  return startStdioSession(await readStartRequest(request), request.headers.get(CHANNEL_ID_HEADER) ?? undefined);
});

/** GET/POST/DELETE /api/mcp/stdio/<session>: one bridge session's Streamable HTTP endpoint. */
export const stdioSessionRoute: ApiHandler<{ session: string }> = route(
  { surface: "stdio" },
  async (request, context: { params: Promise<{ session: string }> }) => {
    assertLocal(request);
    const session = SessionIdSchema.safeParse((await context.params).session);
    if (!session.success) throw new RouteError("not_found:stdio", "No such stdio session");
    return relayStdioRequest(session.data, request);
  },
);

/** GET /api/codemode/runs: the code-mode MCP server's runs as server-sent events (local token). */
export const runsFeedRoute = route({ surface: "codemode" }, (request) => codeModeRunStream(request));

// The pushing process is not a browser (no Origin); the local token is what authorises it.
/** POST /api/codemode/runs: a run pushed by a code-mode MCP server in another process. */
export const runsPushRoute = route({ surface: "codemode", origin: "any" }, (request) => acceptPushedRun(request));

// Load balancers and probes send no Origin; a GET changes nothing.
/** GET /api/health: 200 when this instance can serve everything, 503 naming what is down. */
export const healthRoute = route({ surface: "http", origin: "any" }, () => healthResponse(process.env));

// An iframe's navigation: a GET that changes nothing, with the Origin of whatever framed it
// (its policy's frame-ancestors is what keeps other sites from framing it). Never on the channel.
/** GET /api/mcp-apps/frame: the sandbox proxy page an MCP App runs in. */
export const appFrameRoute = route({ surface: "http", origin: "any" }, (request) => frameResponse(request));

/** Any method on /api/demo-mcp/<name>: the demo MCP servers. */
export function demoRoute(env?: () => Env): ApiHandler<{ name: string }> {
  const answer = demoMcpRoute(env);
  return async (request, { params }) => answer(request, (await params).name);
}

type Methods = Partial<Record<string, ApiHandler<Record<string, string>>>>;

/** One path of the table: a pattern whose named groups are the params, and a handler per method. */
export interface ApiRoute {
  pattern: RegExp;
  methods: Methods;
}

const demo = demoRoute();
const all = (handler: ApiHandler<Record<string, string>>): Methods => ({ GET: handler, POST: handler, DELETE: handler });

/** Every route the page's channel serves. */
export const API_ROUTES: readonly ApiRoute[] = [
  { pattern: /^\/api\/chat$/, methods: { POST: chatRoute } },
  { pattern: /^\/api\/chat\/providers$/, methods: { GET: providersRoute } },
  { pattern: /^\/api\/mcp\/proxy$/, methods: all(proxyRoute) },
  { pattern: /^\/api\/mcp\/stdio$/, methods: { POST: stdioStartRoute } },
  { pattern: /^\/api\/mcp\/stdio\/(?<session>[^/]+)$/, methods: all(stdioSessionRoute as ApiHandler<Record<string, string>>) },
  { pattern: /^\/api\/codemode\/runs$/, methods: { GET: runsFeedRoute, POST: runsPushRoute } },
  { pattern: /^\/api\/demo-mcp\/(?<name>[^/]+)$/, methods: all(demo as ApiHandler<Record<string, string>>) },
];

/** The answer of `API_ROUTES` for `request`, or undefined when no path matches. */
export function dispatchApiRequest(request: Request, routes: readonly ApiRoute[] = API_ROUTES): Promise<Response> | undefined {
  const path = new URL(request.url).pathname;
  for (const entry of routes) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    const handler = entry.methods[request.method];
    if (!handler) return Promise.resolve(new RouteError("method_not_allowed:http", `${request.method} is not served on this path.`).toResponse());
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]));
    } catch {
      return Promise.resolve(new RouteError("bad_request:http", "The path is not valid.").toResponse());
    }
    return handler(request, { params: Promise.resolve(params) });
  }
  return undefined;
}
