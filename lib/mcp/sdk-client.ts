/**
 * The parts of the MCP SDK the page's client runs, in one module that lib/mcp/sdk.ts loads on the
 * first connection rather than with the page (docs/speed.md, "The page's start"). It is
 * the v2 client (`@modelcontextprotocol/client`), which speaks both protocol eras: 2026-07-28
 * (stateless) and 2025-11-25 (a session after `initialize`).
 */
export { Client, SSEClientTransport, SseError, StreamableHTTPClientTransport, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/client";
