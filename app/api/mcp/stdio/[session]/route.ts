/**
 * One stdio bridge session: MCP Streamable HTTP (GET stream, POST messages) relayed to the
 * child's stdin/stdout; DELETE ends the session and kills the child. Every request carries the
 * `x-cmp-local-token` header. Protocol: lib/mcp/stdio/server/stdio-bridge.ts.
 */
import { stdioSessionRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = stdioSessionRoute;
export const POST = stdioSessionRoute;
export const DELETE = stdioSessionRoute;
