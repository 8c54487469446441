/**
 * The app's code-mode MCP endpoint (/api/codemode/mcp) and its live run feed
 * (/api/codemode/runs). Off until the operator configures it: CMP_CODEMODE_CONFIG names the
 * mcp.json to serve and CMP_CODEMODE_TOKEN (32+ characters) is the bearer token callers send.
 * The servers connect and the sandbox threads start on the first request. State is per
 * process, kept on globalThis so that both routes see the same endpoint and feed
 * (docs/ARCHITECTURE.md, "The code-mode MCP server").
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
import { readJsonBody } from "../../http/read-body";
import { runRecordSchema } from "../../timeline/run-file-schema";
import { checkLocalRequest, localGuardContext } from "../../mcp/server/local-guard";
import { createCodeModeMcpServer } from "../mcp-server";
import { bearerRefusal, CodeModeHttpEndpoint } from "../node/http-endpoint";
import { openCodeModeServer, readCodeModeConfig, type OpenedCodeModeServer } from "../node/open";
import { RunFeed } from "../run-feed";
import { messageOf } from "../../text/error-message";

export const CONFIG_ENV = "CMP_CODEMODE_CONFIG";
export const TOKEN_ENV = "CMP_CODEMODE_TOKEN";
const MIN_TOKEN_CHARS = 32;

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
  feed: RunFeed;
  limiter?: RateLimiter;
  opening?: Promise<{ endpoint: CodeModeHttpEndpoint; opened: OpenedCodeModeServer }>;
}

const KEY = Symbol.for("code-mode-playground.codemode-endpoint");
function state(): EndpointState {
  const holder = globalThis as typeof globalThis & { [KEY]?: EndpointState };
  holder[KEY] ??= { feed: new RunFeed() };
  return holder[KEY];
}

/** The configured path and token, or why the endpoint is off. */
export function codeModeSettings(env: Env): { ok: true; configPath: string; token: string } | { ok: false; reason: string } {
  const configPath = env[CONFIG_ENV]?.trim() ?? "";
  const token = env[TOKEN_ENV]?.trim() ?? "";
  if (configPath === "")
    return {
      ok: false,
      reason: `The code-mode MCP endpoint is off. Start the app with ${CONFIG_ENV}=<path to an mcp.json> and ${TOKEN_ENV}=<a secret of at least ${MIN_TOKEN_CHARS} characters>.`,
    };
  if (token.length < MIN_TOKEN_CHARS)
    return { ok: false, reason: `The code-mode MCP endpoint is off: ${TOKEN_ENV} must be set to a secret of at least ${MIN_TOKEN_CHARS} characters.` };
  return { ok: true, configPath, token };
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
    const opened = await openCodeModeServer(config, { baseUrl: new URL(request.url).origin, publish: (update) => s.feed.publish(update) });
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

/** A pushed run is at most this large (a record keeps big values as previews). */
export const MAX_PUSHED_RUN_BYTES = 8 * 1024 * 1024;

function assertLocalCaller(request: Request): void {
  const verdict = checkLocalRequest(request, { ...localGuardContext(), disabled: false });
  if (!verdict.ok) throw new RouteError("refused:codemode", verdict.reason);
}

/**
 * A run pushed by a code-mode MCP server in another process (`code-mode-playground mcp
 * --playground <link>` over stdio): checked like an imported run file, then published on this
 * app's feed, so it shows in the page like the endpoint's own runs. Local mode and the terminal's token.
 */
export async function acceptPushedRun(request: Request): Promise<Response> {
  assertLocalCaller(request);
  const body = await readJsonBody(request, MAX_PUSHED_RUN_BYTES, "codemode");
  const done = typeof body === "object" && body !== null && "done" in body ? body.done : undefined;
  const record = runRecordSchema.safeParse(typeof body === "object" && body !== null && "record" in body ? body.record : undefined);
  if (typeof done !== "boolean" || !record.success) throw new RouteError("bad_request:codemode", "Expected { record: <a run record>, done: boolean }.");
  state().feed.publish({ record: record.data, done });
  return new Response(null, { status: 204 });
}

/** Server-sent events of the endpoint's runs, for the playground page in local mode (the terminal's token). */
export function codeModeRunStream(request: Request): Response {
  assertLocalCaller(request);
  const feed = state().feed;
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    unsubscribe?.();
    clearInterval(keepAlive);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const settings = codeModeSettings(process.env);
      send(`event: status\ndata: ${JSON.stringify(settings.ok ? { on: true } : { on: false, reason: settings.reason })}\n\n`);
      unsubscribe = feed.subscribe((update) => send(`event: run\ndata: ${JSON.stringify(update)}\n\n`));
      keepAlive = setInterval(() => send(": keep-alive\n\n"), 15_000);
      request.signal.addEventListener("abort", stop, { once: true });
    },
    cancel: stop,
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
