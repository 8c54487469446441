/**
 * The built-in demo MCP servers over stateless Streamable HTTP: /api/demo-mcp/{shipping,news,store,lab}.
 * Public on purpose (they answer CORS like a third-party server would), so the guard checks the
 * Host only; the MCP transport checks its own content types.
 */
import { route } from "@/lib/http/server/route";
import { handleDemoMcpRequest } from "@/lib/mcp/demo/http-handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Next 16: `params` is a Promise. */
interface Context {
  params: Promise<{ name: string }>;
}

const handle = route({ surface: "demo_mcp", origin: "any", json: false }, async (request, { params }: Context) => {
  const { name } = await params;
  return handleDemoMcpRequest(name, request);
});

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = handle;
