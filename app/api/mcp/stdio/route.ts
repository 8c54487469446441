/**
 * Starts a local stdio MCP server for the browser: POST `{ command, args?, env?, cwd? }` with the
 * `x-cmp-local-token` header; answers 201 `{ session, url, pid }`. Local mode and the terminal's
 * token only (docs/deploying.md, "Security"); CMP_DISABLE_STDIO=1 turns it off.
 */
import { stdioStartRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const POST = stdioStartRoute;
