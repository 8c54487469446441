/**
 * One bridge session: a stateful Streamable HTTP server transport facing the browser, relaying
 * JSON-RPC both ways to a stdio child through its lease of that child (stdio-shared-child.ts:
 * the pages of every tab share one process per server). The MCP session id is the bridge session
 * id, so the browser's `Mcp-Session-Id` and the URL name the same thing.
 *
 * The transport runs in SSE mode (not JSON responses) so the child's notifications reach the
 * browser: progress notifications ride the stream of the request that asked for them (matched
 * by progress token, since stdio carries no request correlation), everything else the child
 * sends on its own (logging, list changes, sampling requests) goes on the standalone GET stream.
 *
 * A 2026-07-28 page sends no session and no `initialize` (docs/mcp-client.md, "Protocol eras"):
 * each POST is one request, classified by the SDK's own `isLegacyRequest`, relayed to the child
 * and answered on its own event stream: the progress it asked for, then its result. Closing that
 * stream before the result cancels the request at the child. A notification is relayed and
 * acknowledged (202).
 *
 * When the child dies, every request still waiting gets a JSON-RPC error naming the exit status
 * and stderr, so the browser's client fails with the reason rather than hanging.
 */
import "server-only";
import type { RouteError } from "../../../http/route-error";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/client";
import type { ChildExit, StdioChild } from "./stdio-child";
import type { Lease } from "./stdio-shared-child";
import { describeExit } from "../stdio-errors";
import { removeSecrets } from "../../../secrets/patterns";
import { readBodyText } from "../../../http/read-body";

/** Why a session ended. */
/** Why a page's session was closed: "restarted" when another page restarted the server's shared process. */
export type CloseReason = "deleted" | "idle" | "shutdown" | "page closed" | "restarted";

export type SessionEnd = { kind: "closed"; reason: CloseReason } | { kind: "exited"; error: RouteError };

/** Session settings. */
export interface BridgeSessionOptions {
  command: string;
  /** Env values of the child, scrubbed from every message. */
  secrets: readonly string[];
  idleMs: number;
  /** Called once when the session is over, whatever the cause. */
  onEnd(session: BridgeSession, end: SessionEnd): void;
}

// JSON-RPC "connection closed", as the SDK's ErrorCode.ConnectionClosed.
const CONNECTION_CLOSED = -32000;
/** The largest MCP message a page may send the bridge. */
export const MAX_BRIDGE_MESSAGE_BYTES = 4 * 1024 * 1024;

const idKey = (id: RequestId) => `${typeof id}:${String(id)}`;

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers: { "cache-control": "no-store" } });
}

/** A live bridge between one browser MCP client and one stdio child. */
export class BridgeSession {
  private readonly transport: WebStandardStreamableHTTPServerTransport;
  private readonly pending = new Set<RequestId>();
  private readonly progressTokens = new Map<string | number, RequestId>();
  /** A 2026-07-28 request's own event stream, by its id: what the child says for it goes there. */
  private readonly streams = new Map<string, (message: JSONRPCMessage) => void>();
  private readonly idleTimer: NodeJS.Timeout;
  private closing: SessionEnd | undefined;
  private leave!: () => void;
  /** Settles once the session is fully over: waiting requests failed, streams closed, registry told. */
  private readonly finished: Promise<void>;

  private constructor(
    readonly id: string,
    readonly child: StdioChild,
    private readonly lease: Lease,
    private readonly options: BridgeSessionOptions,
  ) {
    this.transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    this.transport.onmessage = (message) => this.toChild(message);
    // The transport answers malformed requests itself (4xx JSON-RPC); nothing to add or log.
    this.transport.onerror = () => undefined;
    lease.onmessage = (message) => this.toBrowser(message);
    this.idleTimer = setTimeout(() => this.onIdle(), options.idleMs).unref();
    // Over when the child ends, or when this page leaves it (other pages may keep it running).
    const left = new Promise<undefined>((resolve) => (this.leave = () => resolve(undefined)));
    this.finished = Promise.race([child.exited, left])
      .then((exit) => this.finish(exit))
      .catch(() => undefined);
  }

  /** The child's recent stderr (a few KB), its env values and credential shapes removed: for the server's view in the page. */
  stderr(): string {
    return removeSecrets(this.child.diagnostics(), this.options.secrets);
  }

  /** A session over `lease`, a share of the running `child`. */
  static async open(id: string, child: StdioChild, lease: Lease, options: BridgeSessionOptions): Promise<BridgeSession> {
    const session = new BridgeSession(id, child, lease, options);
    await session.transport.start();
    return session;
  }

  /** Answers one Streamable HTTP request (GET stream, POST messages) for this session, of either era. */
  async handle(request: Request): Promise<Response> {
    this.idleTimer.refresh();
    if (request.method !== "POST" || request.headers.has("mcp-session-id")) return this.transport.handleRequest(request);
    const read = await readBodyText(request, MAX_BRIDGE_MESSAGE_BYTES);
    if (!read.ok) return jsonRpcError(413, -32600, "The message is larger than the bridge takes (4 MB)");
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the body is not JSON");
    }
    if (await isLegacyRequest(request, body)) return this.transport.handleRequest(request, { parsedBody: body });
    return this.modern(body as JSONRPCMessage);
  }

  /** One 2026-07-28 message: a request answered on its own stream, or a notification acknowledged. */
  private modern(message: JSONRPCMessage): Response {
    if (isJSONRPCNotification(message)) {
      this.toChild(message);
      return new Response(null, { status: 202 });
    }
    if (!isJSONRPCRequest(message)) return jsonRpcError(400, -32600, "Expected one JSON-RPC request or notification");
    const key = idKey(message.id);
    if (this.streams.has(key) || this.pending.has(message.id)) return jsonRpcError(409, -32600, `A request with id ${String(message.id)} is still open`);
    const encoder = new TextEncoder();
    const { id } = message;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.streams.set(key, (out) => {
          controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(out)}\n\n`));
          if (isJSONRPCResultResponse(out) || isJSONRPCErrorResponse(out)) {
            this.streams.delete(key);
            controller.close();
          }
        });
      },
      // The page stopped listening before the result: the child may stop working on it.
      cancel: () => {
        if (!this.streams.delete(key)) return;
        this.settle(id);
        this.lease.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "The page stopped waiting" } });
      },
    });
    this.toChild(message);
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  }

  /**
   * Ends the session: this page leaves the child (the registry stops it once no page holds it).
   * Resolves once the session is unregistered.
   */
  close(reason: CloseReason): Promise<void> {
    this.closing ??= { kind: "closed", reason };
    this.lease.detach(reason);
    this.leave();
    return this.finished;
  }

  private onIdle(): void {
    // A long tool call is not idleness: wait for it.
    if (this.pending.size > 0) this.idleTimer.refresh();
    else void this.close("idle");
  }

  private toChild(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      this.pending.add(message.id);
      const token = message.params?._meta?.progressToken;
      if (typeof token === "string" || typeof token === "number") this.progressTokens.set(token, message.id);
    }
    this.lease.send(message);
  }

  private toBrowser(message: JSONRPCMessage): void {
    let relatedRequestId: RequestId | undefined;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) this.settle(message.id);
      if (message.id !== undefined) relatedRequestId = message.id;
    } else if (isJSONRPCNotification(message) && message.method === "notifications/progress") {
      const token = message.params?.progressToken;
      if (typeof token === "string" || typeof token === "number") relatedRequestId = this.progressTokens.get(token);
    }
    // A 2026-07-28 request's answer and progress go to its own stream.
    const own = relatedRequestId === undefined ? undefined : this.streams.get(idKey(relatedRequestId));
    if (own) return own(message);
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) relatedRequestId = undefined;
    // Throws when the browser stopped listening for that request; nothing left to deliver to.
    this.transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => undefined);
  }

  private settle(id: RequestId): void {
    this.pending.delete(id);
    for (const [token, requestId] of this.progressTokens) if (requestId === id) this.progressTokens.delete(token);
  }

  /** The child is gone, or this page left it: fail what is still waiting, close the streams, report the end. */
  private async finish(exit: ChildExit | undefined): Promise<void> {
    clearTimeout(this.idleTimer);
    this.lease.detach(this.closing?.kind === "closed" ? this.closing.reason : "exited");
    const end: SessionEnd =
      this.closing ??
      (exit
        ? {
            kind: "exited",
            error: describeExit({ exit, command: this.options.command, output: this.child.diagnostics(), secrets: this.options.secrets, atStart: false }),
          }
        : { kind: "closed", reason: "deleted" });
    const message = end.kind === "exited" ? end.error.message : `The stdio session was closed (${end.reason})`;
    const waiting = [...this.pending];
    this.pending.clear();
    this.progressTokens.clear();
    await Promise.all(
      waiting.map((id) => {
        const failed: JSONRPCMessage = { jsonrpc: "2.0", id, error: { code: CONNECTION_CLOSED, message } };
        const own = this.streams.get(idKey(id));
        if (!own) return this.transport.send(failed).catch(() => undefined);
        own(failed);
        return Promise.resolve();
      }),
    );
    await this.transport.close().catch(() => undefined);
    this.options.onEnd(this, end);
  }
}
