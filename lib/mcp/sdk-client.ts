/**
 * The parts of the MCP SDK the client side runs, in one module that lib/mcp/sdk.ts loads on the
 * first connection rather than with the page (docs/ARCHITECTURE.md, "The page's start").
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
export {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
