/**
 * One stdio bridge session: MCP Streamable HTTP (GET stream, POST messages) relayed to the
 * child's stdin/stdout; DELETE ends the session and kills the child. Every request carries the
 * `x-cmp-local-token` header. Protocol: lib/mcp/server/stdio-bridge.ts.
 */
import { route } from "@/lib/http/server/route";
import { RouteError } from "@/lib/http/route-error";
import { assertLocal, relayStdioRequest, SessionIdSchema } from "@/lib/mcp/server/stdio-bridge";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Next 16 passes dynamic params as a Promise. */
interface SessionContext {
  params: Promise<{ session: string }>;
}

const handle = route({ surface: "stdio" }, async (request, context: SessionContext) => {
  assertLocal(request);
  const session = SessionIdSchema.safeParse((await context.params).session);
  if (!session.success) throw new RouteError("not_found:stdio", "No such stdio session");
  return relayStdioRequest(session.data, request);
});

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
