// Where the playground's own servers listen (scripts/serve.mjs, scripts/dev.mjs) and the stdio
// bridge's token: 32 random bytes, or CMP_LOCAL_TOKEN when it is set to 32+ characters, handed to
// the routes in CMP_LOCAL_TOKEN and shown only in the printed link's fragment. Off the loopback
// (or with CMP_MODE=hosted) there is no bridge, so no token (docs/deploying.md, "Security").
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

/** Reads `-p/--port` and `-H/--host` (or `--hostname`), sets the routes' environment, and says where to listen. */
export function listenSettings(args = process.argv.slice(2), env = process.env) {
  const { values } = parseArgs({
    args,
    options: { port: { type: "string", short: "p" }, host: { type: "string", short: "H" }, hostname: { type: "string" } },
    strict: true,
  });
  const port = Number(values.port ?? env.PORT ?? 3000);
  const host = values.host ?? values.hostname ?? env.HOST ?? "127.0.0.1";
  const loopback = host === "127.0.0.1" || host === "::1" || host === "localhost" || host.startsWith("127.");
  // The bridge runs only in local mode (lib/http/server/deployment.ts): on loopback, and not forced hosted.
  const local = loopback && !/^hosted$/i.test(env.CMP_MODE?.trim() ?? "");
  const given = env.CMP_LOCAL_TOKEN?.trim() ?? "";
  const token = given.length >= 32 ? given : randomBytes(32).toString("base64url");
  env.CMP_LOCAL_TOKEN = local ? token : "";
  env.CMP_LISTEN_HOST = host;
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return { port, host, local, token, base };
}

/**
 * Options for http.createServer: a request must arrive whole (headers and body) within
 * CMP_REQUEST_TIMEOUT_MS (default 60 s) and its headers within 10 s, so a client that stalls
 * mid-body holds a connection that long, not Node's 5 minutes; checked every second. Answers
 * and streams going out are not limited by this.
 */
export function serverOptions(env = process.env) {
  const set = Number(env.CMP_REQUEST_TIMEOUT_MS);
  const requestTimeout = Number.isInteger(set) && set > 0 ? set : 60_000;
  return { requestTimeout, headersTimeout: Math.min(10_000, requestTimeout), connectionsCheckingInterval: Math.min(1_000, requestTimeout) };
}
