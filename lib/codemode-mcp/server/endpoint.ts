/**
 * The app's code-mode MCP endpoint (/api/codemode/mcp). Off until the operator configures it:
 * CMP_CODEMODE_CONFIG names the mcp.json to serve and CMP_CODEMODE_TOKEN (32+ characters) is
 * the bearer token callers send (run-feed-routes.ts reads them). The servers connect and the
 * sandbox threads start on the first request; its runs go to the live run feed
 * (run-feed-routes.ts). State is per process, kept on globalThis so that every route sees the
 * same endpoint (docs/benchmarks.md, "The code-mode MCP server").
 */
import "server-only";
import { hkdfSync } from "node:crypto";
import type { Env } from "../../http/server/deployment";
import { positiveSetting } from "../../http/server/deployment";
import { createRateLimiter, enforceLimits } from "../../http/rate-limit";
import type { RateLimiter } from "../../http/rate-limit";
import { redisPrefix, sharedRateLimiter, sharedRedis } from "../../http/server/shared-store";
import { ModernRuns } from "../modern-runs";
import { createRedisCluster } from "./redis-cluster";
import { RouteError } from "../../http/route-error";
import { clientKey } from "../../http/server/client-address";
import { createCodeModeMcpServer } from "../mcp-server";
import { bearerRefusal, CodeModeHttpEndpoint } from "../node/http-endpoint";
import { openCodeModeServer, readCodeModeConfig, type OpenedCodeModeServer } from "../node/open";
import { codeModeSettings, runFeed } from "./run-feed-routes";
import { messageOf } from "../../text/error-message";

/**
 * The key that seals a 2026-07-28 approval's `requestState`, derived from the bearer token
 * every instance shares (HKDF-SHA-256), so any instance can open what another sealed and a
 * caller without the token cannot forge one.
 */
export function requestStateKey(token: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", token, "code-mode-playground", "codemode requestState", 32));
}

/** Requests one client may make per minute (CMP_CODEMODE_RATE_PER_MINUTE, default 1 200). */
function codeModeLimiter(env: Env): RateLimiter {
  const s = state();
  if (!s.limiter) {
    const limit = positiveSetting(env.CMP_CODEMODE_RATE_PER_MINUTE, 1_200);
    s.limiter = sharedRateLimiter(env, "codemode:client", { limit, windowMs: 60_000 }) ?? createRateLimiter({ limit, windowMs: 60_000 });
  }
  return s.limiter;
}

interface EndpointState {
  limiter?: RateLimiter;
  opening?: Promise<{ endpoint: CodeModeHttpEndpoint; opened: OpenedCodeModeServer }>;
}

const KEY = Symbol.for("code-mode-playground.codemode-endpoint");
function state(): EndpointState {
  const holder = globalThis as typeof globalThis & { [KEY]?: EndpointState };
  holder[KEY] ??= {};
  return holder[KEY];
}

/** Answers one request to /api/codemode/mcp. */
export async function handleCodeModeMcp(request: Request, env: Env = process.env): Promise<Response> {
  const settings = codeModeSettings(env);
  if (!settings.ok) throw new RouteError("not_found:codemode", settings.reason);
  // The token first: a stranger must not make the app read its config or start a server.
  const refusal = bearerRefusal(request, settings.token);
  if (refusal) return refusal;
  // Per client, over every instance when they share a Redis (a lost Redis answers 503 here).
  await enforceLimits("codemode", [[codeModeLimiter(env), clientKey(request.headers, env)]]);
  const s = state();
  s.opening ??= (async () => {
    const config = await readCodeModeConfig(settings.configPath);
    const opened = await openCodeModeServer(config, { baseUrl: new URL(request.url).origin, publish: (update) => runFeed().publish(update) });
    // Instances behind one proxy share the Redis and the token: any of them can open a
    // requestState another sealed and reach the instance a program runs on (modern-runs.ts).
    const redis = sharedRedis(env);
    const runs = new ModernRuns({
      taskAfterMs: opened.service.taskAfterMs,
      stateKey: requestStateKey(settings.token),
      ...(redis ? { cluster: createRedisCluster({ redis, prefix: redisPrefix(env) }) } : {}),
    });
    return {
      opened,
      endpoint: new CodeModeHttpEndpoint({
        token: settings.token,
        newServer: () => createCodeModeMcpServer(opened.service, runs),
        // Sessions are capped per client address (lib/http/server/client-address.ts).
        clientOf: (r) => clientKey(r.headers, process.env),
      }),
    };
  })();
  let endpoint: CodeModeHttpEndpoint;
  try {
    ({ endpoint } = await s.opening);
  } catch (error) {
    // Try again on the next request: the operator may fix the file or start a server. The
    // reason names the config's path and quotes servers' stderr (env values, URLs with
    // passwords): it goes to the operator's log, never to the caller.
    s.opening = undefined;
    console.error(`code-mode MCP endpoint: could not start: ${messageOf(error)}`);
    throw new RouteError(
      "unavailable:codemode",
      "The code-mode MCP endpoint could not start its servers; the app's log says why. It tries again on the next request.",
    );
  }
  return endpoint.handle(request);
}
