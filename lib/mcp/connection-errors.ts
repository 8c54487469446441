/**
 * Why a connection to an MCP server failed, as a typed error with a message a person can act
 * on. Pure: classification reads the thrown error plus what the observed fetch saw on the wire
 * (see observed-fetch.ts), because the SDK's errors alone lose the details (a browser's
 * TypeError says nothing; the proxy's JSON error hides inside an error message string).
 */
import { ERA_REVISION, refusalOf, versionRefusal, type ProtocolEraChoice } from "./protocol-era";
import { messageOf } from "../text/error-message";

/** Every way connecting (or staying connected) can fail. Stable: the UI switches on it. */
export type ConnectionErrorKind =
  | "dns"
  | "refused"
  | "tls"
  | "unauthorized"
  /** OAuth: the person must sign in, or signing in failed (the message says which step and why). */
  | "oauth"
  | "forbidden"
  | "not-mcp"
  | "timeout"
  | "cors-or-network"
  | "refused-by-proxy"
  | "protocol"
  /** A local (stdio) server's command did not start or ended at once. */
  | "start-failed"
  /** A cap was reached (the bridge's local servers at once): it clears when another ends, so the page tries again by itself. */
  | "busy"
  | "disconnected"
  | "unsupported";

/** A connection failure as plain data (for status snapshots and postMessage). */
export interface ConnectionErrorData {
  kind: ConnectionErrorKind;
  message: string;
}

/** A connection failure of a named kind; `message` says what went wrong and what to try. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  /** HTTP status involved, when there was one. */
  readonly status?: number;

  constructor(
    readonly kind: ConnectionErrorKind,
    message: string,
    options: { cause?: unknown; status?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
  }

  /** Plain data for snapshots. */
  toJSON(): ConnectionErrorData {
    return { kind: this.kind, message: this.message };
  }
}

/** A non-2xx HTTP answer the observed fetch recorded (body cut to a few KB). */
export interface HttpFailure {
  method: string;
  status: number;
  contentType: string;
  body: string;
  wwwAuthenticate: string | null;
}

/** What classification knows besides the error itself. */
export interface FailureContext {
  /** The server URL, for messages. */
  url: string;
  via: "direct" | "proxy";
  /** The last failed HTTP answer of this attempt. */
  http?: HttpFailure;
  timeoutMs: number;
  /** Our own deadline fired. */
  timedOut?: boolean;
  /** The MCP protocol versions this client speaks (the SDK's), for a version mismatch's message. */
  supportedVersions: readonly string[];
  /** The era the connection asked for (lib/mcp/protocol-era.ts); "auto" when unset. */
  era?: ProtocolEraChoice;
}

// JSON-RPC codes the SDK uses for its own failures (types.ts ErrorCode).
const REQUEST_TIMEOUT = -32001;

/** The URL as messages show it: no credentials, no query (it may hold a key). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function codeOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as { code?: unknown }).code : undefined;
}

/**
 * The system error code under a fetch TypeError: Node's undici puts it in `cause` (sometimes an
 * AggregateError of one per address); browsers give nothing, on purpose.
 */
export function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const direct = codeOf(cause);
  if (typeof direct === "string") return direct;
  const nested = (cause as { errors?: unknown[] } | undefined)?.errors?.[0];
  const code = codeOf(nested);
  return typeof code === "string" ? code : undefined;
}

/** True for fetch's network-level failure: CORS refusal or an unreachable host (browsers cannot tell which). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && !(error instanceof ConnectionError);
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

function fromNetwork(error: unknown, ctx: FailureContext): ConnectionError {
  // Through the proxy, a network failure means the app's own route is unreachable: the
  // upstream's failures come back as the proxy's JSON errors instead.
  if (ctx.via === "proxy") {
    return new ConnectionError(
      "cors-or-network",
      `The playground's own MCP proxy could not be reached: ${messageOf(error)}. Check that the app is running and reachable.`,
      { cause: error },
    );
  }
  const code = networkCode(error) ?? "";
  const host = hostOf(ctx.url);
  if (DNS_CODES.has(code)) return new ConnectionError("dns", `The host name ${host} does not resolve (${code}). Check the URL for typos.`, { cause: error });
  if (code === "ECONNREFUSED") {
    return new ConnectionError("refused", `Nothing is listening at ${host}: the connection was refused. Is the server running, and on this port?`, {
      cause: error,
    });
  }
  if (TLS_CODE.test(code)) {
    return new ConnectionError(
      "tls",
      `The TLS (https) handshake with ${host} failed (${code}). Check the server's certificate, or use http:// for a local server.`,
      { cause: error },
    );
  }
  return new ConnectionError(
    "cors-or-network",
    `The browser could not reach ${displayUrl(ctx.url)}: either the server does not allow this page's origin (CORS) or the network failed, and the browser does not say which. Check the URL, and that the server is up and sends CORS headers.`,
    { cause: error },
  );
}

interface ProxyErrorBody {
  code: string;
  message: string;
  cause?: string;
}

/** The proxy's own JSON error (`{ error: { code: "…:proxy", message, cause? } }`), if this is one. */
export function parseProxyError(http: HttpFailure | undefined): ProxyErrorBody | undefined {
  if (!http || !http.contentType.includes("application/json")) return undefined;
  try {
    const body = JSON.parse(http.body) as { error?: Partial<ProxyErrorBody> };
    const e = body.error;
    if (typeof e?.code !== "string" || !e.code.endsWith(":proxy") || typeof e.message !== "string") return undefined;
    return { code: e.code, message: e.message, ...(typeof e.cause === "string" ? { cause: e.cause } : {}) };
  } catch {
    return undefined;
  }
}

function fromProxy(raw: ProxyErrorBody, http: HttpFailure, url: string): ConnectionError {
  const opts = { status: http.status };
  // The proxy names the full target URL; its query string may hold a key.
  const body = { ...raw, message: raw.message.split(url).join(displayUrl(url)) };
  if (body.code.startsWith("refused:")) {
    return new ConnectionError(
      "refused-by-proxy",
      `The direct connection failed (CORS or network), and the playground's proxy refused to forward: ${body.message}. Enable CORS on the server, or run the playground yourself with MCP_PROXY_ALLOW set.`,
      opts,
    );
  }
  switch (body.cause) {
    case "dns":
      return new ConnectionError("dns", `${body.message}. Check the URL for typos.`, opts);
    case "refused":
      return new ConnectionError("refused", `${body.message}. Is the server running, and on this port?`, opts);
    case "tls":
      return new ConnectionError("tls", `${body.message}. Check the server's certificate.`, opts);
    case "timeout":
      return new ConnectionError("timeout", `${body.message}. The server may be down or overloaded; try again.`, opts);
    case "redirect":
      return new ConnectionError("not-mcp", body.message, opts);
    default:
      return new ConnectionError(body.code.startsWith("unreachable:") ? "cors-or-network" : "protocol", `The playground's proxy failed: ${body.message}`, opts);
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}

/** Classifies an HTTP status the server answered with. */
export function fromStatus(status: number, ctx: FailureContext, detail = ""): ConnectionError {
  const url = displayUrl(ctx.url);
  const opts = { status };
  const auth = ctx.http?.wwwAuthenticate ?? "";
  if (status === 401) {
    const oauth = /resource_metadata|Bearer/i.test(auth)
      ? " It may expect OAuth, which the playground does not run: paste an access token as the header value."
      : "";
    return new ConnectionError(
      "unauthorized",
      `${url} wants credentials (HTTP 401): add an Authorization header (for example "Bearer <token>") to this server.${oauth}`,
      opts,
    );
  }
  if (status === 403) {
    return new ConnectionError(
      "forbidden",
      `${url} refused access (HTTP 403): the credentials sent do not grant it. Check the token or API key and its scopes.`,
      opts,
    );
  }
  if (status === 408 || status === 504) return new ConnectionError("timeout", `${url} timed out (HTTP ${status}). Try again later.`, opts);
  if (status >= 500) {
    const body = detail || excerpt(ctx.http?.body ?? "");
    return new ConnectionError("protocol", `${url} failed with HTTP ${status}${body ? `: ${body}` : ""}. The server has a problem; try again later.`, opts);
  }
  const what = ctx.http?.contentType.includes("text/html") ? "an HTML page" : `HTTP ${status}`;
  return new ConnectionError(
    "not-mcp",
    `${url} answered ${what}, not MCP${detail ? ` (${detail})` : ""}. Check the URL: MCP endpoints usually end in /mcp (Streamable HTTP) or /sse (legacy SSE).`,
    opts,
  );
}

/** Turns whatever a connect attempt threw into a ConnectionError. */
/**
 * The server answered, but not in the era asked for: a -32022 refusal naming the versions it
 * supports, or a forced 2026-07-28 connection to a server that does not speak it. The URL was
 * right, so the message never says to check it.
 */
function fromEra(error: unknown, ctx: FailureContext): ConnectionError | undefined {
  const url = displayUrl(ctx.url);
  const era = ctx.era ?? "auto";
  const asked = era === "modern" ? ERA_REVISION.modern : era === "legacy" ? ERA_REVISION.legacy : "either era";
  const refusal = versionRefusal(ctx.http?.body) ?? refusalOf(error);
  if (refusal) {
    const supported = refusal.supported.length > 0 ? refusal.supported.join(", ") : "versions it did not name";
    const advice = era === "auto" ? "" : " Set the server's protocol era to Negotiate (Edit) to let the playground choose.";
    return new ConnectionError(
      "protocol",
      `${url} is an MCP server, but it speaks ${supported} and this connection asked for ${asked} (it answered -32022, Unsupported protocol version).${advice}`,
      {
        cause: error,
        status: ctx.http?.status,
      },
    );
  }
  if (era === "modern" && codeOf(error) === "ERA_NEGOTIATION_FAILED") {
    return new ConnectionError(
      "protocol",
      `${url} did not answer as a ${ERA_REVISION.modern} server (${messageOf(error)}). It may speak only ${ERA_REVISION.legacy}: set its protocol era to Negotiate (Edit).`,
      { cause: error, ...(ctx.http ? { status: ctx.http.status } : {}) },
    );
  }
  return undefined;
}

export function classifyFailure(error: unknown, ctx: FailureContext): ConnectionError {
  if (error instanceof ConnectionError) return error;
  if (ctx.timedOut || codeOf(error) === REQUEST_TIMEOUT) {
    return new ConnectionError(
      "timeout",
      `${displayUrl(ctx.url)} did not answer within ${ctx.timeoutMs / 1000} s. The server may be down, slow or not an MCP server; try again, or check the URL.`,
      { cause: error },
    );
  }
  const proxyError = ctx.via === "proxy" ? parseProxyError(ctx.http) : undefined;
  if (proxyError && ctx.http) return fromProxy(proxyError, ctx.http, ctx.url);
  if (isNetworkError(error)) return fromNetwork(error, ctx);
  const eraProblem = fromEra(error, ctx);
  if (eraProblem) return eraProblem;
  // StreamableHTTPError and SseError carry the HTTP status as a numeric `code`; -1 means
  // "answered 200 with a content type that is not MCP's".
  const code = codeOf(error);
  const message = messageOf(error);
  if (typeof code === "number" && code >= 300 && code < 600) return fromStatus(code, ctx, /redirect/i.test(message) ? message : "");
  if (ctx.http && ctx.http.status >= 300) return fromStatus(ctx.http.status, ctx);
  if (code === -1 || /content type/i.test(message)) {
    return new ConnectionError(
      "not-mcp",
      `${displayUrl(ctx.url)} answered, but not with MCP (${message}). Check the URL: MCP endpoints usually end in /mcp or /sse.`,
      { cause: error },
    );
  }
  const version = /protocol version is not supported: (\S+)/i.exec(message)?.[1];
  if (version !== undefined) {
    return new ConnectionError(
      "protocol",
      `${displayUrl(ctx.url)} answered the handshake with MCP protocol version ${version.slice(0, 40)}, which this playground does not speak (it speaks ${ctx.supportedVersions.join(", ")}). Update the server, or its MCP SDK.`,
      { cause: error },
    );
  }
  if (error instanceof SyntaxError || (error instanceof Error && error.name === "ZodError")) {
    return new ConnectionError("not-mcp", `${displayUrl(ctx.url)} answered with something that is not MCP JSON-RPC. Check the URL.`, { cause: error });
  }
  return new ConnectionError("protocol", `The MCP handshake with ${displayUrl(ctx.url)} failed: ${message}`, { cause: error });
}
