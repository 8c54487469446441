/**
 * The wire contract of the stdio bridge, shared by the server (stdio-bridge.ts, local-guard.ts)
 * and the browser helper (stdio-client.ts). Constants and types only, so the browser bundle
 * pulls in nothing from the server side.
 */

/** Header carrying the local token. Never a URL parameter: URLs end up in logs and history. */
export const LOCAL_TOKEN_HEADER = "x-cmp-local-token";

/**
 * Fragment key of the local token in the URL `npm start` prints (`/#cmp-token=…`). The fragment
 * never reaches a server or its logs; the page reads it once, keeps it and removes it.
 */
export const LOCAL_TOKEN_FRAGMENT = "cmp-token";

/** Route prefix of the bridge: POST here starts a session, which then lives at `${STDIO_BRIDGE_PATH}/<session>`. */
export const STDIO_BRIDGE_PATH = "/api/mcp/stdio";

/** What the start request answers (201). */
export interface StdioStartResponse {
  session: string;
  /** Path of the session's MCP endpoint, relative to the app's origin. */
  url: string;
  pid: number;
  /** Other pages' sessions on the same process when this one started (tabs share a server's process). */
  sharedWith: number;
  /** The revision the process speaks: "modern" 2026-07-28, "legacy" 2025-11-25 (found on its own pipe, or forced). */
  era: "modern" | "legacy";
}
