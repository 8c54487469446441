/**
 * The code-mode MCP server over Streamable HTTP: `execute_code` and `search_tools` over the
 * servers of the operator's mcp.json, behind the operator's bearer token; off until configured
 * (lib/codemode-mcp/server/endpoint.ts). Any origin: agents are not browsers on this site; the
 * guard still checks the Host (DNS rebinding).
 */
import { route } from "@/lib/http/server/route";
import { handleCodeModeMcp } from "@/lib/codemode-mcp/server/endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = route({ surface: "codemode", origin: "any", json: false }, (request) => handleCodeModeMcp(request));

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
