/**
 * Starts a local stdio MCP server for the browser: POST `{ command, args?, env?, cwd? }` with the
 * `x-cmp-local-token` header; answers 201 `{ session, url, pid }`. Only on a loopback-bound app
 * (see lib/mcp/local-guard.ts); CMP_DISABLE_STDIO=1 turns it off. Protocol: lib/mcp/stdio-bridge.ts.
 */
import { invalidBody, readJsonBody, refuseNonLocal, startStdioSession, StdioStartSchema, toErrorResponse } from "@/lib/mcp/stdio-bridge";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function POST(request: Request): Promise<Response> {
  const refusal = refuseNonLocal(request, "bridge");
  if (refusal) return refusal.toResponse();
  let raw: unknown;
  try {
    raw = await readJsonBody(request);
  } catch (error) {
    return toErrorResponse(error);
  }
  const body = StdioStartSchema.safeParse(raw);
  if (!body.success) return invalidBody(body.error).toResponse();
  return startStdioSession(body.data);
}
