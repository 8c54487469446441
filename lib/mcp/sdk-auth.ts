/**
 * The MCP SDK's OAuth client, in a module of its own that lib/mcp/sdk.ts loads only when a server
 * asks for authorization (a 401 or 403), not with every connection. It is the v1 package's `auth`:
 * the v2 client's stricter issuer check refuses the 2025-03-26 metadata fallback the conformance
 * suite still requires (docs/mcp-client.md, "Protocol eras").
 */
export { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
