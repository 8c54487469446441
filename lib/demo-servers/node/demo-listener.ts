/**
 * The demo MCP servers answered straight from Node's HTTP server, ahead of Next's router (Node
 * only). `node scripts/serve.mjs`, which serves the production build, loads this file's build
 * (`npm run build` bundles it to `.next/cmp/demo-listener.mjs`) and offers it every request first.
 *
 * Why: the router costs about 1 ms of the server's one thread per request before the handler
 * runs (`npm run bench -- --only live`: demo route through Next vs direct), which is more than the
 * handler itself, and a program fanning out 1 000 calls pays it 1 000 times. The answer is the
 * same: the same guarded handler as the Next route (lib/demo-servers/server/demo-route.ts) and the headers
 * next.config.js gives every response, which serve.mjs passes in.
 */
import type http from "node:http";
import { serveFetch } from "../../http/node/fetch-adapter";
import { DEMO_MCP_PATH } from "../http-handler";
import { demoMcpRoute } from "../server/demo-route";
import type { Env } from "../../http/server/deployment";

/** Options of `demoRequestListener`. */
export interface DemoListenerOptions {
  /** The server's own base URL, e.g. http://127.0.0.1:3000 (only the path of a request is used). */
  base: string;
  /** Headers every response carries (next.config.js `headers()` for `/:path*`). */
  headers?: Readonly<Record<string, string>>;
  /** The environment the guard reads (tests pass their own); process.env by default. */
  env?: () => Env;
}

/**
 * A listener that answers the demo servers' paths and returns true, or leaves the request alone
 * and returns false (anything else, query strings included, goes to Next as before).
 */
export function demoRequestListener(options: DemoListenerOptions): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const answer = demoMcpRoute(options.env);
  return (req, res) => {
    const match = DEMO_MCP_PATH.exec(req.url ?? "");
    if (!match?.[1]) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[1]);
    } catch {
      return false;
    }
    serveFetch((request) => answer(request, name), req, res, { base: options.base, extraHeaders: options.headers });
    return true;
  };
}
