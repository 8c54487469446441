/**
 * Serves the demo MCP servers over Streamable HTTP, statelessly: every request builds a fresh
 * McpServer and transport (no session id), so any instance can answer any request and nothing
 * leaks between visitors. State that must outlive a request (the store's carts) lives at
 * module level in its own bounded map. Framework-free so tests call it without Next.
 *
 * CORS is open (`*`, no credentials): the demo servers hold nothing private, and browsers
 * elsewhere (or the MCP Inspector) may use them directly.
 */
import { RouteError } from "../../http/route-error";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { DEMO_SERVER_NAMES, getDemoServer } from "./index";

/** CORS headers for the demo endpoints; the MCP headers must be allowed and the session id exposed. */
export const DEMO_CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers": "Mcp-Session-Id, Mcp-Protocol-Version",
  "access-control-max-age": "86400",
};

function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(DEMO_CORS_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Runs `done` once the body has been read to the end or cancelled. The server must outlive
 * the handler for SSE responses, and closing it on cancel aborts tools still running (sleep).
 */
function closeWhenDone(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = () => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          controller.close();
          finish();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
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
  const server = demo.create();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: demo.responseMode === "json",
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  return withCors(closeWhenDone(response, () => void server.close().catch(() => undefined)));
}
