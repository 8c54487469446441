/** The code-mode MCP endpoint's runs as server-sent events, for the page in local mode (lib/codemode-mcp/server/endpoint.ts). */
import { route } from "@/lib/http/server/route";
import { codeModeRunStream } from "@/lib/codemode-mcp/server/endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = route({ surface: "codemode" }, (request) => codeModeRunStream(request));
