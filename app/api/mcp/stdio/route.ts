/**
 * Starts a local stdio MCP server for the browser: POST `{ command, args?, env?, cwd? }` with the
 * `x-cmp-local-token` header; answers 201 `{ session, url, pid }`. Local mode and the terminal's
 * token only (docs/ARCHITECTURE.md, "Security"); CMP_DISABLE_STDIO=1 turns it off.
 */
import { route } from "@/lib/http/server/route";
import { assertLocal, readStartRequest, startStdioSession } from "@/lib/mcp/server/stdio-bridge";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const POST = route({ surface: "stdio" }, async (request) => {
  assertLocal(request);
  return startStdioSession(await readStartRequest(request));
});
