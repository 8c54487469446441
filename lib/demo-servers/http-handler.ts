/**
 * Serves the demo MCP servers over Streamable HTTP, statelessly: every request gets its own
 * transport (no session id), so any instance can answer any request. State that must outlive a
 * request (the store's carts) lives at module level in its own bounded map. Framework-free so
 * tests call it without Next.
 *
 * Two protocol eras (docs/mcp-client.md, "Protocol eras"), on the v2 server SDK. A demo of
 * 2026-07-28 answers that revision's requests (`server/discover`, then each request with its
 * own `_meta`) through the SDK's createMcpHandler; 2025-era requests to it, and every request
 * to the 2025-only demo (lab), go through the stateless 2025 transport below. Both take pooled
 * servers, each era from its own pool.
 *
 * Servers are pooled: building one (its Zod schemas) cost more than answering a call, and a
 * program fanning out 1 000 calls paid it 1 000 times. A server goes back to the pool only after
 * requests that leave nothing of the visitor on it (every 2026-07-28 request; of the 2025 ones,
 * POOLED_METHODS: no `initialize`, which stores the client's capabilities, no
 * `logging/setLevel`); any other request gets a fresh server that is dropped afterwards.
 *
 * CORS is open (`*`, no credentials): the demo servers hold nothing private, and browsers
 * elsewhere (or the MCP Inspector) may use them directly.
 */
import { RouteError } from "../http/route-error";
import { onBodyEnd } from "../http/body-end";
import { readBodyText } from "../http/read-body";
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { McpHttpHandler, McpServer } from "@modelcontextprotocol/server";
import { DEMO_SERVER_NAMES, getDemoServer, type DemoServer } from "./index";
import { isRecord } from "../text/json-value";

/** `/api/demo-mcp/<name>`: the demo servers' path; the name is group 1, still percent-encoded. */
export const DEMO_MCP_PATH = /^\/api\/demo-mcp\/([^/?#]+)$/;

/** Requests after which a server holds nothing of the client that sent them. */
const POOLED_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "tools/list",
  "ping",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "prompts/get",
  "completion/complete",
]);
/** Idle servers kept per demo: enough for a browser's parallel calls. */
const POOL_SIZE = 16;
const idle = new Map<PoolKey, McpServer[]>();

/** A pool per demo and era: the SDK marks a server it serves 2026-07-28 with (handlers, version), so the eras never share one. */
type PoolKey = `${string}:${"modern" | "legacy"}`;

function takeServer(demo: DemoServer, pooled: boolean, era: "modern" | "legacy" = "legacy"): McpServer {
  return (pooled ? idle.get(`${demo.name}:${era}`)?.pop() : undefined) ?? demo.create();
}

function giveBack(demo: DemoServer, server: McpServer, pooled: boolean, era: "modern" | "legacy" = "legacy"): void {
  void server
    .close()
    .then(() => {
      if (!pooled) return;
      const key: PoolKey = `${demo.name}:${era}`;
      let servers = idle.get(key);
      if (!servers) idle.set(key, (servers = []));
      if (servers.length < POOL_SIZE) servers.push(server);
    })
    .catch(() => undefined);
}

/** The server the 2026-07-28 handler took for a request (its factory sees the request), to give back when the answer is sent. */
const lent = new WeakMap<Request, McpServer>();

/** The 2026-07-28 handler of each demo that speaks it, made on its first such request. */
const modernHandlers = new Map<string, McpHttpHandler>();

function modernHandler(demo: DemoServer): McpHttpHandler {
  let handler = modernHandlers.get(demo.name);
  if (!handler) {
    // Strict on its own ("reject"): 2025-era requests never reach it (see handleDemoMcpRequest).
    // "auto" answers with one JSON body unless a tool sends something before its result.
    // Every 2026-07-28 request leaves nothing of its client on the server (its identity and
    // capabilities come with each request), so each may take a pooled one.
    handler = createMcpHandler(
      ({ requestInfo }) => {
        const server = takeServer(demo, true, "modern");
        if (requestInfo) lent.set(requestInfo, server);
        return server;
      },
      { legacy: "reject", responseMode: "auto", maxRequestBodySize: MAX_BODY_BYTES },
    );
    modernHandlers.set(demo.name, handler);
  }
  return handler;
}

/** A demo call's body is small; this is a cap against a hostile one, far above any real call. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The request's JSON body, when it is one JSON-RPC message (the transport is given it, so the body is read once). */
async function jsonRpcBody(
  request: Request,
): Promise<{ body: unknown; method: string | undefined; tool: string | undefined } | { text: string } | { tooLarge: true }> {
  const read = await readBodyText(request, MAX_BODY_BYTES);
  if (!read.ok) return { tooLarge: true };
  const { text } = read;
  try {
    const body: unknown = JSON.parse(text);
    const message: { method?: unknown; params?: { name?: unknown } } = isRecord(body) ? body : {};
    const method = typeof message.method === "string" ? message.method : undefined;
    const tool = method === "tools/call" && typeof message.params?.name === "string" ? message.params.name : undefined;
    return { body, method, tool };
  } catch {
    return { text };
  }
}

/** Whether this request is answered with an event stream (see DemoServerInfo.responseMode). */
function answersWithStream(demo: DemoServer, tool: string | undefined): boolean {
  return demo.responseMode !== "json" && tool !== undefined && demo.responseMode.sse.includes(tool);
}

/** CORS headers for the demo endpoints; the MCP headers must be allowed and the session id exposed. */
export const DEMO_CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
  "access-control-expose-headers": "Mcp-Session-Id, Mcp-Protocol-Version",
  "access-control-max-age": "86400",
};

function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(DEMO_CORS_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Answers one HTTP request for the demo server called `name` (GET, POST, DELETE, OPTIONS). */
export async function handleDemoMcpRequest(name: string, request: Request): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: DEMO_CORS_HEADERS });
  const demo = getDemoServer(name);
  if (!demo) {
    const known = DEMO_SERVER_NAMES.join(", ");
    return new RouteError("not_found:demo_mcp", `No demo MCP server named "${name}". Available: ${known}.`).toResponse(DEMO_CORS_HEADERS);
  }
  if (request.method !== "POST" && request.method !== "DELETE") {
    // Stateless: a standalone GET stream would belong to a server that is gone after this
    // request, so nothing could ever be sent on it. 405 tells clients to skip it (spec-allowed).
    const message = `The ${name} demo server is stateless: use POST (and DELETE); ${request.method} is not supported`;
    return new RouteError("method_not_allowed:demo_mcp", message).toResponse({ ...DEMO_CORS_HEADERS, allow: "POST, DELETE, OPTIONS" });
  }
  const read = request.method === "POST" ? await jsonRpcBody(request) : undefined;
  if (read && "tooLarge" in read) {
    return new RouteError("too_large:demo_mcp", `A demo MCP request is at most ${MAX_BODY_BYTES} bytes`).toResponse(DEMO_CORS_HEADERS);
  }
  if (demo.protocol === "2026-07-28" && read && "body" in read && !(await isLegacyRequest(request, read.body))) {
    const response = await modernHandler(demo).fetch(request, { parsedBody: read.body });
    const server = lent.get(request);
    return withCors(server ? onBodyEnd(response, () => giveBack(demo, server, true, "modern")) : response);
  }
  const pooled = read !== undefined && "body" in read && read.method !== undefined && POOLED_METHODS.has(read.method);
  const server = takeServer(demo, pooled);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !answersWithStream(demo, read && "body" in read ? read.tool : undefined),
  });
  await server.connect(transport);
  // Unparseable JSON goes to the transport as text, which answers it with its own parse error.
  const response =
    read === undefined
      ? await transport.handleRequest(request)
      : "body" in read
        ? await transport.handleRequest(request, { parsedBody: read.body })
        : await transport.handleRequest(new Request(request.url, { method: "POST", headers: request.headers, body: read.text }));
  return withCors(onBodyEnd(response, () => giveBack(demo, server, pooled)));
}
