/**
 * The page's Content-Security-Policy, as a pure function of a per-request nonce and the MCP
 * origins the person registered. Built by proxy.ts for every page request.
 *
 * - Scripts: only those carrying this response's nonce (Next puts it on its own scripts when
 *   it finds the policy on the request), and what they load ('strict-dynamic'); no inline
 *   handlers, no eval. Development adds 'unsafe-eval', which React's dev build needs.
 * - Styles allow inline: Monaco injects <style> elements and React writes style attributes,
 *   neither of which can carry a nonce. Styles cannot run code, so scripts are where the
 *   policy holds the line.
 * - Workers from this origin or blob: (the sandbox and Monaco's language workers).
 * - connect-src: this origin plus the MCP servers the person added, read from the
 *   `cmp-connect` cookie the page keeps (lib/mcp/browser/connect-origins.ts). A server added during
 *   this page's life is reached through the app's proxy until the next load, so nothing the
 *   page does trips the policy.
 * - Nothing may frame the app, no plugins, no <base> rewriting, forms post only here.
 */

/** Cookie carrying the origins the page may fetch directly. */
export const CONNECT_COOKIE = "cmp-connect";

/** Most origins kept in the cookie (a header has to stay a sane size). */
export const MAX_CONNECT_ORIGINS = 32;

// What an origin may look like in a policy: scheme, a plain host name, IPv4 or bracketed IPv6,
// an optional port. The URL parser alone is not enough: it accepts ";" and "," in host names,
// and either would end a directive (a policy injection).
const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The http(s) origin of `text`, or undefined; paths, credentials, other schemes and odd hosts never pass. */
export function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) return undefined;
    return ORIGIN.test(url.origin) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins in a cookie value (space-separated, URI-encoded); anything malformed is dropped. */
export function parseConnectOrigins(value: string | undefined): string[] {
  if (!value) return [];
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const part of text.split(" ")) {
    const origin = originOf(part);
    // The origin must be the whole entry: no path, no stray characters that could end a directive.
    if (origin !== undefined && origin === part) out.add(origin);
    if (out.size >= MAX_CONNECT_ORIGINS) break;
  }
  return [...out];
}

/** The cookie value for a list of origins. */
export function formatConnectOrigins(origins: Iterable<string>): string {
  const kept = [...new Set([...origins].map(originOf).filter((o): o is string => o !== undefined))].slice(0, MAX_CONNECT_ORIGINS);
  return encodeURIComponent(kept.join(" "));
}

/** The policy for one page response. */
export function buildCsp(options: { nonce: string; connectOrigins: readonly string[]; dev?: boolean }): string {
  const { nonce, connectOrigins, dev = false } = options;
  const directives: Array<[string, string[]]> = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["media-src", ["'self'", "data:", "blob:"]],
    ["font-src", ["'self'", "data:"]],
    ["worker-src", ["'self'", "blob:"]],
    ["connect-src", ["'self'", ...connectOrigins, ...(dev ? ["ws:"] : [])]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(" ")}`).join("; ");
}
