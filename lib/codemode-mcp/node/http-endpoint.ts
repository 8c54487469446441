/**
 * The code-mode MCP server over Streamable HTTP, framework-free (Web Request in, Response out):
 * the Next route /api/codemode/mcp wraps it, tests host it on loopback. Stateful sessions, one
 * MCP Server each, because asking the client about a destructive call (elicitation) is a
 * server-to-client request whose answer must reach the same session. Every request must carry
 * the operator's bearer token. Sessions are capped and expire when idle.
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { secretsEqual } from "../../secrets/node/equal";

export interface HttpEndpointOptions {
  /** The bearer token callers must send (Authorization: Bearer …). */
  token: string;
  /** A fresh MCP Server for a new session. */
  newServer: () => Server;
  maxSessions?: number;
  /** A session unused this long is closed. */
  idleMs?: number;
  now?: () => number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

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
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(private readonly options: HttpEndpointOptions) {
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.now = options.now ?? (() => Date.now());
  }

  get sessionCount(): number {
    return this.sessions.size;
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
      return session.transport.handleRequest(request);
    }
    if (request.method !== "POST") return jsonError(400, "Start a session with an initialize POST first");
    if (this.sessions.size >= this.maxSessions) return jsonError(503, `Busy: ${this.maxSessions} sessions are open; try again later`, { "retry-after": "30" });
    return this.open(request);
  }

  private async open(request: Request): Promise<Response> {
    const server = this.options.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, { transport, server, lastUsed: this.now() });
      },
      onsessionclosed: (sessionId) => {
        this.drop(sessionId);
      },
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize request (or a failed one): nothing was registered, so release it.
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  private drop(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    void session.server.close().catch(() => undefined);
  }

  private expireIdle(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, session] of this.sessions) if (session.lastUsed < cutoff) this.drop(id);
  }

  close(): void {
    for (const id of [...this.sessions.keys()]) this.drop(id);
  }
}
