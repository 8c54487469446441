/**
 * Which headers cross the MCP proxy, both ways. Pure; shared by the proxy (server) and the
 * proxy fetch (browser) so both sides agree on the wire format.
 *
 * Request: the target URL travels in `x-mcp-target`; the MCP headers below pass as they are;
 * any other header the client wants the server to see (the server's configured headers,
 * Authorization included) travels as `x-mcp-header-<name>`. Everything else stays behind:
 * cookies for this app, and above all the browser's own `Authorization`, which carries the
 * HTTP Basic credentials of whatever site sits in front of this app.
 * Response: only headers an MCP client needs come back; never `set-cookie`.
 */

/** Request header carrying the absolute URL of the MCP server. */
export const TARGET_HEADER = "x-mcp-target";

/** Prefix for custom request headers to forward: `x-mcp-header-x-api-key: …` becomes `x-api-key: …`. */
export const CUSTOM_HEADER_PREFIX = "x-mcp-header-";

/** Request headers forwarded under their own name. */
export const FORWARDED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "content-length",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
]);

/** Response headers passed back to the client. */
export const FORWARDED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "cache-control",
  "mcp-session-id",
  "mcp-protocol-version",
  "www-authenticate",
  "retry-after",
]);

// Never settable through x-mcp-header-*: hop-by-hop headers, framing, and anything that
// would let a caller pose as a proxy hop.
const FORBIDDEN_CUSTOM =
  /^(host|connection|keep-alive|transfer-encoding|te|trailer|upgrade|content-length|expect|forwarded|x-forwarded-.*|x-real-ip|proxy-.*|x-mcp-target)$/;

/** Headers for the upstream request, built from the incoming request's headers. */
export function buildUpstreamHeaders(incoming: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of incoming.entries()) {
    const name = rawName.toLowerCase();
    if (FORWARDED_REQUEST_HEADERS.has(name)) {
      out[name] = value;
    } else if (name.startsWith(CUSTOM_HEADER_PREFIX)) {
      const target = name.slice(CUSTOM_HEADER_PREFIX.length);
      if (target !== "" && !FORBIDDEN_CUSTOM.test(target)) out[target] = value;
    }
  }
  return out;
}

/** Headers for the response to the client, built from the upstream response's headers. */
export function buildDownstreamHeaders(upstream: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [rawName, value] of Object.entries(upstream)) {
    const name = rawName.toLowerCase();
    if (value === undefined || !FORWARDED_RESPONSE_HEADERS.has(name)) continue;
    out.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  // Reverse proxies in front of Next buffer responses by default; SSE must flow event by event.
  if (out.get("content-type")?.includes("text/event-stream")) out.set("x-accel-buffering", "no");
  return out;
}

/** Splits the headers a client wants to send into the proxy wire form (used by the browser side). */
export function toProxyRequestHeaders(headers: Headers, targetUrl: string): Headers {
  const out = new Headers();
  for (const [rawName, value] of headers.entries()) {
    const name = rawName.toLowerCase();
    out.set(FORWARDED_REQUEST_HEADERS.has(name) ? name : `${CUSTOM_HEADER_PREFIX}${name}`, value);
  }
  out.set(TARGET_HEADER, targetUrl);
  return out;
}
