/**
 * The code-mode MCP server over Streamable HTTP, framework-free (Web Request in, Response out):
 * the Next route /api/codemode/mcp wraps it, tests host it on loopback. Every request must carry
 * the operator's bearer token. Both protocol eras on one endpoint, on the v2 server SDK
 * (docs/benchmarks.md, "The code-mode MCP server"):
 *
 * - **2026-07-28** requests are stateless: each gets a fresh MCP Server through the SDK's
 *   `createMcpHandler`, so any instance may answer any request.
 * - **2025-11-25** clients get stateful sessions, one MCP Server each, because asking the client
 *   about a destructive call (elicitation) is a server-to-client request whose answer must reach
 *   the same session.
 *
 * Sessions end when the client says so (DELETE), when the client goes away (its standalone GET
 * stream closed and nothing came back within `closeGraceMs`: SDK clients close that way, without
 * a DELETE), or after `idleMs` unused. They are capped per client (`maxSessionsPerClient`: a new
 * one ends that client's least recently used) and in all (`maxSessions`: then 503), so one token
 * holder cannot lock every other agent out.
 */
import { randomUUID } from "node:crypto";
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { McpHttpHandler, McpServer, Server } from "@modelcontextprotocol/server";
import { secretsEqual } from "../../secrets/node/equal";
import { onBodyEnd } from "../../http/body-end";
import { readBodyText } from "../../http/read-body";

export interface HttpEndpointOptions {
  /** The bearer token callers must send (Authorization: Bearer …). */
  token: string;
  /** A fresh MCP server for a new session or a 2026-07-28 request. */
  newServer: () => McpServer | Server;
  maxSessions?: number;
  /** Sessions one client may hold; a new one ends its least recently used. */
  maxSessionsPerClient?: number;
  /** Who a request comes from (the client's address); default: everyone is one client. */
  clientOf?: (request: Request) => string;
  /** A session unused this long is closed. */
  idleMs?: number;
  /** A session whose last GET stream closed is closed after this long without a request. */
  closeGraceMs?: number;
  now?: () => number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer | Server;
  client: string;
  lastUsed: number;
  /** Standalone GET streams open now. */
  streams: number;
  grace?: ReturnType<typeof setTimeout>;
}

export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 16;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_CLOSE_GRACE_MS = 10_000;
/** The largest request body: a program and its data, far above any real one. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  // JSON-RPC shaped, as MCP clients expect from a Streamable HTTP endpoint.
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The 401 for a request without the operator's bearer token, or undefined when it carries it. */
export function bearerRefusal(request: Request, token: string): Response | undefined {
  const auth = request.headers.get("authorization") ?? "";
  const presented = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim() ?? "";
  if (secretsEqual(presented, token)) return undefined;
  return jsonError(401, "This code-mode MCP endpoint needs the operator's bearer token (Authorization: Bearer <CMP_CODEMODE_TOKEN>)", {
    "www-authenticate": 'Bearer realm="code-mode-playground"',
  });
}

export class CodeModeHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly maxPerClient: number;
  private readonly idleMs: number;
  private readonly closeGraceMs: number;
  private readonly now: () => number;
  /** 2026-07-28 requests: a fresh Server each, no session ("reject": 2025 ones never reach it). */
  private readonly modern: McpHttpHandler;

  constructor(private readonly options: HttpEndpointOptions) {
    this.modern = createMcpHandler(() => options.newServer(), { legacy: "reject", responseMode: "auto", maxRequestBodySize: MAX_REQUEST_BYTES });
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.maxPerClient = options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT;
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    this.now = options.now ?? (() => Date.now());
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Standalone GET streams open over all sessions. */
  get streamCount(): number {
    return [...this.sessions.values()].reduce((sum, s) => sum + s.streams, 0);
  }

  async handle(request: Request): Promise<Response> {
    const refusal = bearerRefusal(request, this.options.token);
    if (refusal) return refusal;
    this.expireIdle();
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return jsonError(404, "Unknown or expired session: initialize again");
      session.lastUsed = this.now();
      clearTimeout(session.grace);
      const response = await session.transport.handleRequest(request);
      if (request.method === "GET" && response.ok && response.body) return this.watchStream(id, session, request, response);
      return response;
    }
    if (request.method !== "POST") return jsonError(400, "Start a session with an initialize POST first, or send 2026-07-28 requests (POST, no session)");
    const read = await readBodyText(request, MAX_REQUEST_BYTES);
    if (!read.ok) return jsonError(413, `A request to this endpoint is at most ${MAX_REQUEST_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }), {
        status: 400,
        headers: { "content-type": "application/json" },
      });
    }
    if (!(await isLegacyRequest(request, body, { maxRequestBodySize: MAX_REQUEST_BYTES }))) return this.modern.fetch(request, { parsedBody: body });
    const client = this.options.clientOf?.(request) ?? "";
    if (this.sessions.size >= this.maxSessions) return jsonError(503, `Busy: ${this.maxSessions} sessions are open; try again later`, { "retry-after": "30" });
    return this.open(request, body, client);
  }

  /** Counts a session's standalone GET stream; when its last one ends, the grace period starts. */
  private watchStream(id: string, session: Session, request: Request, response: Response): Response {
    session.streams += 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      session.streams -= 1;
      if (session.streams > 0 || this.sessions.get(id) !== session) return;
      clearTimeout(session.grace);
      session.grace = setTimeout(() => {
        if (session.streams === 0 && this.sessions.get(id) === session) this.drop(id);
      }, this.closeGraceMs);
      session.grace.unref?.();
    };
    request.signal.addEventListener("abort", end, { once: true });
    return onBodyEnd(response, end);
  }

  private async open(request: Request, body: unknown, client: string): Promise<Response> {
    const server = this.options.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        // A client past its cap makes room by ending its own least recently used sessions.
        const own = [...this.sessions].filter(([, s]) => s.client === client).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
        for (const [oldest] of own.slice(0, Math.max(0, own.length - this.maxPerClient + 1))) this.drop(oldest);
        this.sessions.set(sessionId, { transport, server, client, lastUsed: this.now(), streams: 0 });
      },
      onsessionclosed: (sessionId) => {
        this.drop(sessionId);
      },
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // Not an initialize request (or a failed one): nothing was registered, so release it.
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  private drop(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    clearTimeout(session.grace);
    void session.server.close().catch(() => undefined);
  }

  private expireIdle(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, session] of this.sessions) if (session.lastUsed < cutoff) this.drop(id);
  }

  close(): void {
    for (const id of [...this.sessions.keys()]) this.drop(id);
    void this.modern.close?.();
  }
}
