/**
 * The fetches a connection's requests go through (docs/mcp-client.md, "The MCP client"): OAuth's
 * discovery and token requests on the route the MCP traffic takes, a signal of its own per
 * request, and OAuth's fetch outside a connect (revocation). Pure: the base fetch and the proxy's
 * are injected.
 */
import type { ConnectOptions } from "./connection";
import { AuthorizationNeeded, OAuthFlowError } from "./oauth/oauth-fetch";
import { OAuthRefused } from "./oauth/provider";
import { createProxyFetch, type FetchLike } from "./proxy/proxy-fetch";

/** How a connection reaches its server: straight, or through the app's proxy. */
export type Route = "direct" | "proxy";

/** Signing in is needed or failed: reported as it is, never retried on another route or wire. */
export function isOAuthError(error: unknown): error is Error {
  return error instanceof AuthorizationNeeded || error instanceof OAuthFlowError || error instanceof OAuthRefused;
}

/**
 * The fetch for OAuth discovery and token requests on a route: through the proxy when the MCP
 * traffic goes there; otherwise direct, and through the proxy when the authorization server
 * allows no CORS (a fetch TypeError) or the page may not fetch its origin.
 */
export function authFetchFor(route: Route, base: FetchLike, proxy: FetchLike, options: ConnectOptions): FetchLike {
  if (route === "proxy") return proxy;
  const sameOrigin = new URL(options.baseUrl).origin;
  return async (input, init) => {
    const origin = new URL(typeof input === "string" ? input : input.href).origin;
    if (origin !== sameOrigin && options.canConnectDirect && !options.canConnectDirect(origin)) return proxy(input, init);
    try {
      return await base(input, init);
    } catch (error) {
      if (error instanceof TypeError && origin !== sameOrigin && options.via !== "direct") return proxy(input, init);
      throw error;
    }
  };
}

/**
 * The SDK's transport gives every request one long-lived signal, and fetch hangs an abort
 * listener on it per request that goes only when the request is collected: over a long session
 * they pile up (Node warns past 1 500, once per request from then on). Each request gets its own
 * signal that follows the transport's instead; AbortSignal.any holds its source weakly.
 */
export function ownSignal(base: FetchLike): FetchLike {
  return (input, init) => base(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
}

/** The fetch OAuth requests use outside a connect (revocation): direct, the proxy when CORS or the page's policy forbids. */
export function oauthFetch(options: ConnectOptions): FetchLike {
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  return authFetchFor("direct", base, createProxyFetch({ proxyUrl: new URL(options.proxyUrl, options.baseUrl), fetch: base }), options);
}
