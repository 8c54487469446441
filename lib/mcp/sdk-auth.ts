/**
 * The MCP SDK's OAuth client (the v2 `@modelcontextprotocol/client`), in a module of its own that
 * lib/mcp/sdk.ts loads only when a server asks for authorization (a 401 or 403), not with every
 * connection.
 */
export { auth, discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams, IssuerMismatchError } from "@modelcontextprotocol/client";
