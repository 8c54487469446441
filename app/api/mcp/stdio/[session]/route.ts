/**
 * One stdio bridge session: MCP Streamable HTTP (GET stream, POST messages) relayed to the
 * child's stdin/stdout; DELETE ends the session and kills the child. Every request carries the
 * `x-cmp-local-token` header. Protocol: lib/mcp/stdio-bridge.ts.
 */
import { refuseNonLocal, relayStdioRequest, SessionIdSchema } from "@/lib/mcp/stdio-bridge";
import { StdioBridgeError } from "@/lib/mcp/stdio-errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Next 16 passes dynamic params as a Promise. */
interface SessionContext {
  params: Promise<{ session: string }>;
}

async function handle(request: Request, context: SessionContext): Promise<Response> {
  const refusal = refuseNonLocal(request, "bridge");
  if (refusal) return refusal.toResponse();
  const session = SessionIdSchema.safeParse((await context.params).session);
  if (!session.success) return new StdioBridgeError("not_found:stdio", "No such stdio session").toResponse();
  return relayStdioRequest(session.data, request);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
