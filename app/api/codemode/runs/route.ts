/**
 * The code-mode MCP server's runs: GET streams them to the page as server-sent events; POST takes
 * a run from a code-mode MCP server in another process (stdio). Local mode and the terminal's
 * token only (lib/codemode-mcp/server/endpoint.ts).
 */
import { route } from "@/lib/http/server/route";
import { acceptPushedRun, codeModeRunStream } from "@/lib/codemode-mcp/server/endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = route({ surface: "codemode" }, (request) => codeModeRunStream(request));

// The pushing process is not a browser (no Origin); the local token is what authorises it.
export const POST = route({ surface: "codemode", origin: "any" }, (request) => acceptPushedRun(request));
