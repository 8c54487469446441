/**
 * The MCP proxy: forwards one HTTP exchange to an MCP server that does not allow CORS, for
 * the browser's MCP client. Streams both bodies, so SSE responses flow event by event.
 * Touches the network; the decisions (guard, headers) live in pure files beside it.
 *
 * Uses node:http(s) rather than fetch because only they take a `lookup` hook, which is where
 * the resolved address is checked (see guarded-lookup.ts). Redirects are not followed: a
 * streamed body cannot be replayed, and each hop would need the guard again; the person gets
 * a clear error naming the new location instead.
 * No CORS headers on purpose: the proxy is same-origin only, and the custom `x-mcp-target`
 * header forces a preflight that other origins fail, which also keeps it from being CSRF'd.
 */
import "server-only";
import { Readable, Transform } from "node:stream";
import { readStreamCapped } from "../../../http/read-body";
import { RouteError } from "../../../http/route-error";
import http from "node:http";
import https from "node:https";
import type { UnreachableCause } from "../../errors";
import { createGuardedLookup, GUARD_REFUSED_CODE } from "../../../net/server/guarded-lookup";
import type { ResolveAll } from "../../../net/server/guarded-lookup";
import { checkProxyTarget } from "../../../net/proxy-guard";
import type { ProxyGuardOptions } from "../../../net/proxy-guard";
import { buildDownstreamHeaders, buildUpstreamHeaders, TARGET_HEADER } from "../proxy-headers";
import { positiveSetting } from "../../../http/server/deployment";
import type { AppMode, Env } from "../../../http/server/deployment";
import { PRIVATE_TARGETS } from "../../../net/private-targets";
import { messageOf } from "../../../text/error-message";

/** Proxy configuration: the guard's allow-list plus limits. */
export interface ProxyOptions extends ProxyGuardOptions {
  /** Time allowed until the upstream's response headers arrive. Streams may then stay open. */
  timeoutMs?: number;
  /** Longest a response (an SSE stream above all) may stay open; unlimited when unset. */
  maxStreamMs?: number;
  /** Most response bytes relayed; unlimited when unset. */
  maxResponseBytes?: number;
  /** Which keep-alive pool to use: one per mode (proxyOptionsFor sets it), none otherwise. */
  pool?: AppMode;
  /** Largest request body forwarded. */
  maxRequestBytes?: number;
  /** DNS resolver; injected in tests. */
  resolveAll?: ResolveAll;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
const METHODS = new Set(["GET", "POST", "DELETE"]);
const TOO_LARGE_CODE = "EMCPTOOLARGE";
const TIMEOUT_CODE = "EMCPTIMEOUT";

// Dedicated agents, one pair per deployment mode: a pooled socket skips `lookup`, so every
// socket in a pool must have been opened under the same allow-list as the request reusing it.
// Local mode allows private targets and hosted mode does not, so they never share a pool.
const agentPools = {
  local: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  hosted: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  // Options built by hand (tests, callers with their own allow-list): no pooling at all.
  none: { http: false as const, https: false as const },
};

/** Hosted defaults: an SSE stream lives at most 10 minutes and relays at most 64 MB. */
export const HOSTED_PROXY_CAPS = { maxStreamMs: 10 * 60_000, maxResponseBytes: 64 * 1024 * 1024 } as const;

/**
 * Proxy options for one request, from the environment and the deployment mode:
 * MCP_PROXY_ALLOW (comma-separated allow-list), MCP_PROXY_ALLOW_ONLY=1, MCP_PROXY_TIMEOUT_MS,
 * and in hosted mode MCP_PROXY_MAX_STREAM_MS and MCP_PROXY_MAX_RESPONSE_BYTES. In local mode
 * (the person's own machine) loopback and private targets pass: their own MCP server without
 * CORS on 127.0.0.1 is the most common development setup. In hosted mode they never do unless
 * the operator allow-lists them, and streams are capped in time and bytes.
 */
export function proxyOptionsFor(mode: AppMode, env: Env): ProxyOptions {
  const allowList = (env.MCP_PROXY_ALLOW ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const timeout = positiveSetting(env.MCP_PROXY_TIMEOUT_MS);
  const base: ProxyOptions = {
    pool: mode,
    allowList: mode === "local" ? [...allowList, ...PRIVATE_TARGETS] : allowList,
    allowListOnly: env.MCP_PROXY_ALLOW_ONLY === "1" || env.MCP_PROXY_ALLOW_ONLY === "true",
    ...(timeout ? { timeoutMs: timeout } : {}),
  };
  if (mode === "local") return base;
  return {
    ...base,
    maxStreamMs: positiveSetting(env.MCP_PROXY_MAX_STREAM_MS) ?? HOSTED_PROXY_CAPS.maxStreamMs,
    maxResponseBytes: positiveSetting(env.MCP_PROXY_MAX_RESPONSE_BYTES) ?? HOSTED_PROXY_CAPS.maxResponseBytes,
  };
}

/** Forwards `request` to the URL in its `x-mcp-target` header; errors come back as JSON. */
export async function handleProxyRequest(request: Request, options: ProxyOptions = {}): Promise<Response> {
  try {
    return await forward(request, options);
  } catch (error) {
    const routeError = error instanceof RouteError ? error : toRouteError(error, request.headers.get(TARGET_HEADER) ?? "");
    return routeError.toResponse(routeError.code.startsWith("method_not_allowed") ? { allow: "GET, POST, DELETE" } : undefined);
  }
}

async function forward(request: Request, options: ProxyOptions): Promise<Response> {
  if (!METHODS.has(request.method)) {
    throw new RouteError("method_not_allowed:proxy", `The MCP proxy forwards GET, POST and DELETE, not ${request.method}`);
  }
  const target = request.headers.get(TARGET_HEADER);
  if (!target) throw new RouteError("bad_request:proxy", `Missing the ${TARGET_HEADER} header (the MCP server URL)`);
  const verdict = checkProxyTarget(target, options);
  if (!verdict.ok) throw new RouteError("refused:proxy", `Refused to proxy to ${describeTarget(target)}: ${verdict.reason}`);

  const upstream = await sendUpstream(new URL(target), request, options);
  const status = upstream.statusCode ?? 502;
  if (status >= 300 && status < 400 && upstream.headers.location) {
    upstream.destroy();
    // Where it points, without its query: the person needs the path to register the right URL.
    const moved = new URL(upstream.headers.location, target);
    const location = `${moved.origin}${moved.pathname}`;
    throw new RouteError("unreachable:proxy", `${describeTarget(target)} redirected (${status}) to ${location}; register the URL it redirects to instead`, {
      cause: "redirect",
    });
  }
  const headers = buildDownstreamHeaders(upstream.headers);
  if (status === 204 || status === 304) {
    upstream.resume();
    return new Response(null, { status, headers });
  }
  const body = Readable.toWeb(capped(upstream, options)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}

/**
 * The upstream body, ended once it has streamed for `maxStreamMs` or relayed
 * `maxResponseBytes`. An SSE client reconnects (with Last-Event-ID) when its stream ends, so a
 * cap bounds what one request can hold open without breaking a well-behaved session.
 */
function capped(upstream: http.IncomingMessage, options: ProxyOptions): Readable {
  const { maxStreamMs, maxResponseBytes } = options;
  if (maxStreamMs === undefined && maxResponseBytes === undefined) return upstream;
  let seen = 0;
  const stop = () => {
    clearTimeout(timer);
    upstream.unpipe(limit);
    upstream.destroy();
    limit.end();
  };
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (maxResponseBytes !== undefined && seen > maxResponseBytes) {
        done();
        stop();
        return;
      }
      done(null, chunk);
    },
  });
  const timer = maxStreamMs === undefined ? undefined : setTimeout(stop, maxStreamMs);
  timer?.unref();
  limit.on("close", () => clearTimeout(timer));
  upstream.on("error", () => limit.end());
  return upstream.pipe(limit);
}

/**
 * Sends the request upstream. The body (capped) is read first, so that a request that met a
 * kept-alive socket the server was closing at that moment (ECONNRESET on a reused socket, the
 * race every keep-alive pool has) is sent once more on a fresh one instead of failing the call.
 */
async function sendUpstream(url: URL, request: Request, options: ProxyOptions): Promise<http.IncomingMessage> {
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  let body: Uint8Array | undefined;
  if (request.body) {
    const read = await readStreamCapped(request.body, maxBytes).catch((error: unknown) => {
      throw error instanceof Error ? error : new Error(String(error));
    });
    if (!read.ok) throw codedError(`request body over ${maxBytes} bytes`, TOO_LARGE_CODE);
    body = read.bytes;
  }
  try {
    return await sendOnce(url, request, options, body);
  } catch (error) {
    if ((error as { reusedSocket?: boolean }).reusedSocket === true && (error as { code?: unknown }).code === "ECONNRESET" && !request.signal.aborted)
      return sendOnce(url, request, options, body);
    throw error;
  }
}

function sendOnce(url: URL, request: Request, options: ProxyOptions, body: Uint8Array | undefined): Promise<http.IncomingMessage> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const isHttps = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const upstream = (isHttps ? https : http).request(url, {
      method: request.method,
      headers: buildUpstreamHeaders(request.headers),
      agent: isHttps ? agentPools[options.pool ?? "none"].https : agentPools[options.pool ?? "none"].http,
      lookup: createGuardedLookup(options, options.resolveAll),
    });
    const fail = (error: Error) => upstream.destroy(error);
    const timer = setTimeout(() => fail(codedError(`no response within ${timeoutMs} ms`, TIMEOUT_CODE)), timeoutMs);
    // The browser going away (or the SSE stream being closed) ends the upstream exchange too.
    const onAbort = () => fail(new Error("the client closed the request"));
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
    upstream.on("response", (response) => {
      clearTimeout(timer);
      response.on("close", () => request.signal.removeEventListener("abort", onAbort));
      resolve(response);
    });
    upstream.on("error", (error) => {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      reject(Object.assign(error, { reusedSocket: upstream.reusedSocket }));
    });
    upstream.end(body);
  });
}

function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/**
 * A target as errors name it: its origin only. A URL's path and query may carry a key
 * (`/mcp?api_key=…`), and errors never quote request data that may hold a secret.
 */
export function describeTarget(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return "the target URL";
  }
}

/** Maps a Node network error to the proxy's error family, naming the cause. */
export function toRouteError(error: unknown, target: string): RouteError {
  const message = messageOf(error);
  const code = (error as { code?: unknown } | null)?.code;
  const c = typeof code === "string" ? code : "";
  if (c === GUARD_REFUSED_CODE) return new RouteError("refused:proxy", `Refused to proxy to ${describeTarget(target)}: ${message}`);
  if (c === TOO_LARGE_CODE) return new RouteError("too_large:proxy", `Request too large: ${message}`);
  const unreachable = (cause: UnreachableCause, what: string) =>
    new RouteError("unreachable:proxy", `Could not reach ${describeTarget(target)}: ${what} (${c || message})`, { cause });
  if (DNS_CODES.has(c)) return unreachable("dns", "the host name did not resolve");
  if (c === "ECONNREFUSED") return unreachable("refused", "the connection was refused");
  if (c === "ECONNRESET" || c === "EPIPE") return unreachable("reset", "the connection was reset");
  if (c === TIMEOUT_CODE || c === "ETIMEDOUT") return unreachable("timeout", message);
  if (TLS_CODE.test(c)) return unreachable("tls", `TLS failed: ${message}`);
  return unreachable("network", message);
}
