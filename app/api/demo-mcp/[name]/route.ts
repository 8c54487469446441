/**
 * The built-in demo MCP servers over stateless Streamable HTTP: /api/demo-mcp/{shipping,news,store,lab}.
 * `node scripts/serve.mjs` (how `npm start` serves) answers these paths before Next's router
 * does, through the same guarded handler (docs/ARCHITECTURE.md, "The live path"); this route
 * serves them under `next dev` and `next start`.
 */
import { demoMcpRoute } from "@/lib/mcp/server/demo-route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Next 16: `params` is a Promise. */
interface Context {
  params: Promise<{ name: string }>;
}

const answer = demoMcpRoute();
const handle = async (request: Request, { params }: Context) => answer(request, (await params).name);

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = handle;
