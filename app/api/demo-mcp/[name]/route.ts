/**
 * The built-in demo MCP servers over stateless Streamable HTTP: /api/demo-mcp/{shipping,news,store,lab}.
 * `node scripts/serve.mjs` (how `npm start` serves) answers these paths before Next's router
 * does, through the same guarded handler (docs/speed.md, "The live path"); this route
 * serves them under `next dev` and `next start`.
 */
import { demoRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = demoRoute();

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = handle;
