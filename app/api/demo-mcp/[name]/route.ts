/** The built-in demo MCP servers over stateless Streamable HTTP: /api/demo-mcp/{shipping,news,store,lab}. */
import { handleDemoMcpRequest } from "@/lib/mcp/demo/http-handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Next 16: `params` is a Promise. */
interface Context {
  params: Promise<{ name: string }>;
}

async function handle(request: Request, { params }: Context): Promise<Response> {
  const { name } = await params;
  return handleDemoMcpRequest(name, request);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = handle;
