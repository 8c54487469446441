/**
 * State every instance of a hosted playground must share: rate-limit counters and short links.
 * One machine keeps them in its process and on its disk (the defaults). Behind a load balancer,
 * set CMP_REDIS_URL (redis://host:6379/0) and every instance uses the same Redis: a deployment
 * running several instances usually has one already. Each operation is one Lua script, so
 * concurrent instances never interleave inside a read-modify-write.
 */
import "server-only";
import type { Env } from "./deployment";
import { positiveSetting } from "./deployment";
import type { RateLimitDecision, RateLimiter } from "../rate-limit";
import { RouteError } from "../route-error";
import { openRedisConnection, RedisUnavailableError } from "./redis-connection";
import type { SharedRedis } from "./redis-connection";
import { messageOf } from "../../text/error-message";

export type { SharedRedis } from "./redis-connection";

/** Key prefix of everything this app stores (CMP_REDIS_PREFIX, default "cmp:"). */
export function redisPrefix(env: Env): string {
  return env.CMP_REDIS_PREFIX?.trim() || "cmp:";
}

// One connection per URL per process, on globalThis: the Next routes and the page's channel
// (lib/channel/node) are bundled apart and must share it.
const KEY = Symbol.for("code-mode-playground.shared-redis");
const holder = globalThis as unknown as Record<symbol, Map<string, SharedRedis> | undefined>;
const connections = (holder[KEY] ??= new Map<string, SharedRedis>());

/**
 * The process's connection to CMP_REDIS_URL, or undefined when none is configured. It heals by
 * itself (redis-connection.ts); CMP_REDIS_TIMEOUT_MS bounds how long a command waits (default 1 000).
 */
export function sharedRedis(env: Env): SharedRedis | undefined {
  const url = env.CMP_REDIS_URL?.trim();
  if (!url) return undefined;
  let connection = connections.get(url);
  if (!connection) {
    connection = openRedisConnection(url, { commandTimeoutMs: positiveSetting(env.CMP_REDIS_TIMEOUT_MS, 1_000) });
    connections.set(url, connection);
  }
  return connection;
}

/** Closes every shared connection (tests, shutdown). */
export async function closeSharedRedis(): Promise<void> {
  const open = [...connections.values()];
  connections.clear();
  await Promise.all(open.map((connection) => connection.close()));
}

/**
 * A failed command as the route answers it: a 503 that names nothing. Redis being down is
 * logged once when it goes down (redis-connection.ts); anything else (a script error) is
 * logged here.
 */
export function redisUnavailable(error: unknown): RouteError {
  if (!(error instanceof RedisUnavailableError)) console.error("shared store:", messageOf(error));
  return new RouteError("unavailable:http", "The shared store (Redis) is unavailable right now; try again shortly.");
}

// A token bucket, as createRateLimiter keeps it, in a Redis hash. Time is Redis's own, so
// instances with skewed clocks agree. Returns {1, remaining} or {0, wait in ms}.
const TAKE = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or limit
local at = tonumber(b[2]) or now
tokens = math.min(limit, tokens + math.max(0, now - at) * limit / window)
local ok = 0
if cost <= tokens then
  tokens = tokens - cost
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], window * 2)
if ok == 1 then return {1, math.floor(tokens)} end
if cost > limit then return {0, window} end
return {0, math.ceil((cost - tokens) * window / limit)}
`;

/** A limiter in Redis with createRateLimiter's semantics, or undefined without CMP_REDIS_URL. */
export function sharedRateLimiter(env: Env, name: string, options: { limit: number; windowMs: number }): RateLimiter | undefined {
  const connection = sharedRedis(env);
  if (!connection) return undefined;
  const prefix = `${redisPrefix(env)}rate:${name}:`;
  return {
    async take(key, cost = 1): Promise<RateLimitDecision> {
      let reply: unknown;
      try {
        reply = await connection.eval(TAKE, { keys: [prefix + key], arguments: [String(options.limit), String(options.windowMs), String(cost)] });
      } catch (error) {
        throw redisUnavailable(error);
      }
      const [ok, value] = (reply as [number, number] | null) ?? [0, options.windowMs];
      return ok === 1 ? { ok: true, remaining: value } : { ok: false, retryAfterMs: value };
    },
  };
}
