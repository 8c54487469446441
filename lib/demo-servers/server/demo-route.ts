/**
 * The demo MCP servers' route, guard included, in one place: the Next route
 * (app/api/demo-mcp/[name]) and the production server's direct path (lib/demo-servers/node/demo-listener.ts)
 * both answer through it. Public on purpose (they answer CORS like a third-party server would),
 * so the guard checks the Host only; the MCP transport checks its own content types.
 */
import "server-only";
import { route } from "../../http/server/route";
import type { Env } from "../../http/server/deployment";
import { handleDemoMcpRequest } from "../http-handler";

/** The guarded handler: `name` is the demo server's name from the path. */
export function demoMcpRoute(env?: () => Env): (request: Request, name: string) => Promise<Response> {
  return route({ surface: "demo_mcp", origin: "any", json: false, env }, (request, name: string) => handleDemoMcpRequest(name, request));
}
