/**
 * The code-mode MCP server's runs: GET streams them to the page as server-sent events; POST takes
 * a run from a code-mode MCP server in another process (stdio). Local mode and the terminal's
 * token only (lib/codemode-mcp/server/endpoint.ts).
 */
import { runsFeedRoute, runsPushRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = runsFeedRoute;
export const POST = runsPushRoute;
