/**
 * A ShareStore in Redis, for several instances behind a load balancer (CMP_REDIS_URL). Same
 * rules as the file store: snapshots expire after `ttlMs`, and when a new one would pass
 * `maxTotalBytes` the oldest are evicted first; only a snapshot larger than the whole cap is
 * refused. One Lua script per put, so concurrent instances keep one consistent total.
 */
import "server-only";
import { redisUnavailable } from "../../http/server/shared-store";
import type { SharedRedis } from "../../http/server/shared-store";
import type { SharePutOutcome, ShareStore } from "./store";

/** Where and how much. */
export interface RedisShareStoreOptions {
  redis: SharedRedis;
  /** Key prefix (CMP_REDIS_PREFIX). */
  prefix: string;
  maxTotalBytes: number;
  ttlMs: number;
}

// KEYS: data prefix, index (sorted set by time), sizes (hash), total. ARGV: id, text, ttl, cap.
const PUT = `
local prefix, index, sizes, totalKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, text = ARGV[1], ARGV[2]
local ttl, cap = tonumber(ARGV[3]), tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function drop(member)
  local size = tonumber(redis.call('HGET', sizes, member) or '0')
  redis.call('DEL', prefix .. member)
  redis.call('HDEL', sizes, member)
  redis.call('ZREM', index, member)
  redis.call('DECRBY', totalKey, size)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now - ttl)) do drop(member) end
local existing = redis.call('GET', prefix .. id)
if existing == text then return 'exists' end
local size = string.len(text)
if size > cap then return 'full' end
if existing then drop(id) end
while tonumber(redis.call('GET', totalKey) or '0') + size > cap do
  local oldest = redis.call('ZRANGE', index, 0, 0)
  if #oldest == 0 then break end
  drop(oldest[1])
end
redis.call('SET', prefix .. id, text, 'PX', ttl)
redis.call('ZADD', index, now, id)
redis.call('HSET', sizes, id, size)
redis.call('INCRBY', totalKey, size)
return 'created'
`;

/** A ShareStore over a shared Redis. */
export function createRedisShareStore(options: RedisShareStoreOptions): ShareStore {
  const base = `${options.prefix}share:`;
  const keys = [`${base}data:`, `${base}index`, `${base}sizes`, `${base}total`];
  return {
    async put(id, text): Promise<SharePutOutcome> {
      try {
        const outcome = await options.redis.eval(PUT, { keys, arguments: [id, text, String(options.ttlMs), String(options.maxTotalBytes)] });
        return outcome as SharePutOutcome;
      } catch (error) {
        throw redisUnavailable(error);
      }
    },
    async get(id) {
      try {
        return (await options.redis.get(`${base}data:${id}`)) ?? undefined;
      } catch (error) {
        throw redisUnavailable(error);
      }
    },
  };
}
