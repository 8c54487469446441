import type { FetchLike } from "./proxy/proxy-fetch";

const DEMO_PATH = /^\/api\/demo-mcp\/[^/]+\/?$/;

/**
 * The built-in demo servers are stateless (a fresh McpServer per request), so they offer no
 * standalone GET stream and answer it with 405, which the SDK accepts. The browser still logs
 * every 405 as a console error, so for our own demo routes that GET is answered here, without a
 * request. Every other server and method goes to `base` unchanged.
 */
export function withoutDemoGetStream(base: FetchLike, origin: string): FetchLike {
  return (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : String(input), origin);
    const method = (init?.method ?? "GET").toUpperCase();
    if (method === "GET" && url.origin === origin && DEMO_PATH.test(url.pathname)) {
      return Promise.resolve(new Response(null, { status: 405, statusText: "Method Not Allowed", headers: { allow: "POST, DELETE" } }));
    }
    return base(input, init);
  };
}
