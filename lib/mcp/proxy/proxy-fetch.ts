/**
 * A fetch for the SDK's client transports that sends every request through the MCP proxy.
 * The transport keeps the server's real URL, so relative URLs the server hands out (the legacy
 * SSE transport's `endpoint` event, redirects) resolve against the server, not against this app.
 * Runs in the browser; the wire format is defined in proxy-headers.ts.
 */
import { toProxyRequestHeaders } from "./proxy-headers";

/** The SDK's `FetchLike`: what `StreamableHTTPClientTransport` and `SSEClientTransport` accept as `fetch`. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Where the proxy lives and which fetch reaches it. */
export interface ProxyFetchOptions {
  /** The proxy route, e.g. new URL("/api/mcp/proxy", location.origin). */
  proxyUrl: string | URL;
  /** The underlying fetch; defaults to the global one. */
  fetch?: FetchLike;
}

/** Wraps fetch so `fetch(serverUrl, init)` becomes a request to the proxy carrying `x-mcp-target: serverUrl`. */
export function createProxyFetch(options: ProxyFetchOptions): FetchLike {
  const base: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  return (url, init) => {
    const target = typeof url === "string" ? new URL(url).href : url.href;
    return base(options.proxyUrl, { ...init, headers: toProxyRequestHeaders(new Headers(init?.headers), target) });
  };
}
