/**
 * State every instance of a hosted playground must share: rate-limit counters and short links.
 * One machine keeps them in its process and on its disk (the defaults). Behind a load balancer,
 * set CMP_REDIS_URL (redis://host:6379/0) and every instance uses the same Redis: a deployment
 * running several instances usually has one already. Each operation is one Lua script, so
 * concurrent instances never interleave inside a read-modify-write.
 */
import "server-only";
import { createClient } from "@redis/client";
import type { Env } from "./deployment";
import type { RateLimitDecision, RateLimiter } from "../rate-limit";
import { RouteError } from "../route-error";

/** The few Redis commands this app uses; a narrow type keeps the client's generics out of every signature. */
export interface SharedRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<string | null>;
  close(): Promise<void>;
}

/** Key prefix of everything this app stores (CMP_REDIS_PREFIX, default "cmp:"). */
export function redisPrefix(env: Env): string {
  return env.CMP_REDIS_PREFIX?.trim() || "cmp:";
}

const clients = new Map<string, Promise<SharedRedis>>();

/** The process's connection to CMP_REDIS_URL (one per URL), or undefined when none is configured. */
export function sharedRedis(env: Env): Promise<SharedRedis> | undefined {
  const url = env.CMP_REDIS_URL?.trim();
  if (!url) return undefined;
  let client = clients.get(url);
  if (!client) {
    const redis = createClient({
      url,
      // Nothing waits on a Redis that is gone: commands fail at once while disconnected, and
      // after a few reconnects the client gives up; the next request opens a new one.
      disableOfflineQueue: true,
      socket: { connectTimeout: 3_000, reconnectStrategy: (retries) => (retries >= 3 ? new Error("Redis is unreachable") : 200 * (retries + 1)) },
    });
    // Without a listener an unreachable Redis would crash the process; commands fail instead.
    redis.on("error", () => undefined);
    redis.on("end", () => clients.delete(url));
    client = redis.connect().then(() => redis as unknown as SharedRedis);
    client.catch(() => clients.delete(url));
    clients.set(url, client);
  }
  return client;
}

/** Closes every shared connection (tests, shutdown). */
export async function closeSharedRedis(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((client) => client.then((c) => c.close()).catch(() => undefined)));
}

/** A command that failed because Redis is unreachable: a 503 for the route, the cause to the log. */
export function redisUnavailable(error: unknown): RouteError {
  console.error("shared store:", error instanceof Error ? error.message : String(error));
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
        const redis = await connection;
        reply = await redis.eval(TAKE, { keys: [prefix + key], arguments: [String(options.limit), String(options.windowMs), String(cost)] });
      } catch (error) {
        throw redisUnavailable(error);
      }
      const [ok, value] = (reply as [number, number] | null) ?? [0, options.windowMs];
      return ok === 1 ? { ok: true, remaining: value } : { ok: false, retryAfterMs: value };
    },
  };
}
