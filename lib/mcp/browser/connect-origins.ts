/**
 * Which MCP servers the page may fetch directly, under the page's Content-Security-Policy
 * (lib/http/csp.ts). The policy of a loaded page cannot change, so:
 * - at load, the origins in the `cmp-connect` cookie are the ones its policy allows; a
 *   connection to any other origin goes through the app's proxy (same origin) from the start,
 *   and the browser never reports a violation;
 * - whenever the server list changes, the cookie is rewritten with every remote server's
 *   origin, so the next load lets the page reach them directly.
 * Runs in the browser; the cookie text is passed in and out, so this is testable without one.
 */
import { CONNECT_COOKIE, formatConnectOrigins, originOf, parseConnectOrigins } from "../../http/csp";
import type { ServerConfig } from "../types";

/** The origins the current page's policy allows, from `document.cookie`. */
export function allowedConnectOrigins(cookie: string): ReadonlySet<string> {
  const entry = cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONNECT_COOKIE}=`));
  return new Set(parseConnectOrigins(entry?.slice(CONNECT_COOKIE.length + 1)));
}

/** The `document.cookie` assignment that lets the next load reach these servers directly. */
export function connectOriginsCookie(servers: readonly ServerConfig[], appOrigin: string): string {
  const origins = servers.flatMap((server) => {
    if (server.transport === "stdio" || !server.url) return [];
    const origin = originOf(server.url);
    return origin !== undefined && origin !== appOrigin ? [origin] : [];
  });
  return `${CONNECT_COOKIE}=${formatConnectOrigins(origins)}; Path=/; Max-Age=31536000; SameSite=Strict`;
}
