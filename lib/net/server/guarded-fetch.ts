/**
 * A `fetch` for server-side calls to URLs a browser chose (the OpenAI-compatible base URL),
 * with the MCP proxy's address guard applied where it counts: at connect time, on the address
 * the socket really uses (guarded-lookup.ts). A name that resolves to a metadata or private
 * address (`169.254.169.254.nip.io`, a name pointing at 127.0.0.1) is refused, and so is every
 * redirect hop whose target fails the guard: each hop is checked by its text and connects
 * through the guarded lookup again. The provider SDKs take it as their `fetch` option; Node's
 * own fetch has no lookup hook, which is why this is built on node:http(s).
 */
import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { createGuardedLookup, GUARD_REFUSED_CODE } from "./guarded-lookup";
import type { ResolveAll } from "./guarded-lookup";
import { checkProxyTarget } from "../proxy-guard";
import type { ProxyGuardOptions } from "../proxy-guard";

/** Guard settings plus the resolver (tests) and the redirect budget. */
export interface GuardedFetchOptions extends ProxyGuardOptions {
  resolveAll?: ResolveAll;
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A refusal by the guard, as a fetch failure whose message says why. */
export class GuardRefusedError extends TypeError {
  override readonly name = "GuardRefusedError";
  readonly code = GUARD_REFUSED_CODE;
}

function bodyOf(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // The provider SDKs send JSON strings; anything else here is a programming error.
  throw new TypeError("guarded fetch sends string or byte bodies only");
}

function send(
  url: URL,
  method: string,
  headers: Headers,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
  options: GuardedFetchOptions,
): Promise<http.IncomingMessage> {
  const isHttps = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (isHttps ? https : http).request(url, {
      method,
      headers: Object.fromEntries(headers),
      lookup: createGuardedLookup(options, options.resolveAll),
      // No pooled sockets: a kept-alive socket skips `lookup`, so one opened under another
      // request's allow-list would be reused unchecked. Model calls are few and long.
      agent: false,
      ...(signal ? { signal } : {}),
    });
    request.on("response", resolve);
    request.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === GUARD_REFUSED_CODE ? new GuardRefusedError(`Refused to connect: ${error.message}`) : error);
    });
    request.end(body);
  });
}

/** A fetch that refuses, at connect time and on every redirect, what the guard refuses. */
export function createGuardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const maxRedirects = options.maxRedirects ?? 5;
  const guarded = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    let body = bodyOf(init.body);
    const signal = init.signal ?? undefined;
    for (let hop = 0; ; hop++) {
      const verdict = checkProxyTarget(url, options);
      if (!verdict.ok) throw new GuardRefusedError(`Refused to connect to ${url.origin}: ${verdict.reason}`);
      const response = await send(url, method, headers, body, signal, options);
      const status = response.statusCode ?? 502;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location && init.redirect !== "manual") {
        response.resume();
        if (hop >= maxRedirects) throw new TypeError(`Too many redirects (more than ${maxRedirects}) from ${url.origin}`);
        url = new URL(location, url);
        if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          headers.delete("content-type");
          headers.delete("content-length");
        }
        continue;
      }
      const out = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const nullBody = status === 204 || status === 304 || method === "HEAD";
      if (nullBody) response.resume();
      const stream = nullBody ? null : (Readable.toWeb(response) as unknown as ReadableStream<Uint8Array>);
      return new Response(stream, { status, statusText: response.statusMessage ?? "", headers: out });
    }
  };
  return guarded;
}
