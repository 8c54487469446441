/**
 * GET /api/mcp-apps/frame: the sandbox proxy page an MCP App runs in; see lib/mcp-apps/server/frame-page.ts.
 */
import { appFrameRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = appFrameRoute;
