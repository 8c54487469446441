/**
 * The short-link store and rate limiters a server process uses, configured from the
 * environment once, on first use:
 *   CMP_SHARE_DIR                     data directory (default `.data/shares`, relative to the cwd)
 *   CMP_SHARE_MAX_TOTAL_BYTES         total size of all snapshots (default 512 MB); the oldest go first
 *   CMP_SHARE_TTL_DAYS                how long a snapshot lives (default 30)
 *   CMP_SHARE_RATE_PER_MINUTE         new short links per client per minute (default 10)
 *   CMP_SHARE_CLIENT_BYTES_PER_DAY    bytes of snapshots one client may store per day (default 16 MB)
 *   CMP_SHARE_GLOBAL_RATE_PER_MINUTE  new short links per minute over all clients (default 300)
 *   CMP_SHARE_READ_RATE_PER_MINUTE    short-link reads per client per minute (default 120)
 *   CMP_SHARE_DISABLE=1               no short links (links and files still work)
 *   CMP_REDIS_URL                     keep snapshots and counters in a Redis every instance shares
 * Client keys come from lib/http/server/client-address.ts. Server only.
 */
import "server-only";
import { positiveSetting } from "../../http/server/deployment";
import type { Env } from "../../http/server/deployment";
import { createRateLimiter } from "../../http/rate-limit";
import type { RateLimiter } from "../../http/rate-limit";
import { redisPrefix, sharedRateLimiter, sharedRedis } from "../../http/server/shared-store";
import { createFileShareStore } from "./file-store";
import { createRedisShareStore } from "./redis-store";
import type { ShareStore } from "./store";

/** Settings read from the environment. */
export interface ShortLinkConfig {
  enabled: boolean;
  dir: string;
  maxTotalBytes: number;
  ttlMs: number;
  perClientPerMinute: number;
  clientBytesPerDay: number;
  globalPerMinute: number;
  readsPerClientPerMinute: number;
}

/** What the routes use. */
export interface ShortLinkRuntime {
  enabled: boolean;
  store: ShareStore;
  /** Taken per client key on every create. */
  createLimiter: RateLimiter;
  /** Charged the snapshot's bytes per client key on every create. */
  clientBytesLimiter: RateLimiter;
  /** Taken under one key on every create: backs up the per-client limit against forged client keys. */
  globalCreateLimiter: RateLimiter;
  readLimiter: RateLimiter;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Reads the settings; unset or invalid values fall back to the defaults. */
export function shortLinkConfigFromEnv(env: Env): ShortLinkConfig {
  return {
    enabled: !/^(1|true|yes)$/i.test(env.CMP_SHARE_DISABLE ?? ""),
    dir: env.CMP_SHARE_DIR?.trim() || ".data/shares",
    maxTotalBytes: positiveSetting(env.CMP_SHARE_MAX_TOTAL_BYTES, 512 * 1024 * 1024),
    ttlMs: positiveSetting(env.CMP_SHARE_TTL_DAYS, 30) * DAY,
    perClientPerMinute: positiveSetting(env.CMP_SHARE_RATE_PER_MINUTE, 10),
    clientBytesPerDay: positiveSetting(env.CMP_SHARE_CLIENT_BYTES_PER_DAY, 16 * 1024 * 1024),
    globalPerMinute: positiveSetting(env.CMP_SHARE_GLOBAL_RATE_PER_MINUTE, 300),
    readsPerClientPerMinute: positiveSetting(env.CMP_SHARE_READ_RATE_PER_MINUTE, 120),
  };
}

/** Builds a runtime; `store` and `now` are injectable for tests; `env` chooses Redis when CMP_REDIS_URL is set. */
export function createShortLinkRuntime(config: ShortLinkConfig, options: { store?: ShareStore; now?: () => number; env?: Env } = {}): ShortLinkRuntime {
  const env = options.env ?? {};
  const limiter = (name: string, limit: number, windowMs = MINUTE) =>
    sharedRateLimiter(env, `share:${name}`, { limit, windowMs }) ?? createRateLimiter({ limit, windowMs, ...(options.now ? { now: options.now } : {}) });
  const redis = sharedRedis(env);
  const store =
    options.store ??
    (redis
      ? createRedisShareStore({ redis, prefix: redisPrefix(env), maxTotalBytes: config.maxTotalBytes, ttlMs: config.ttlMs })
      : createFileShareStore({ dir: config.dir, maxTotalBytes: config.maxTotalBytes, ttlMs: config.ttlMs }));
  return {
    enabled: config.enabled,
    store,
    createLimiter: limiter("create", config.perClientPerMinute),
    clientBytesLimiter: limiter("bytes", config.clientBytesPerDay, DAY),
    globalCreateLimiter: limiter("global", config.globalPerMinute),
    readLimiter: limiter("read", config.readsPerClientPerMinute),
  };
}

let current: ShortLinkRuntime | undefined;

/** The process's runtime, created from process.env on first use. */
export function shortLinkRuntime(): ShortLinkRuntime {
  return (current ??= createShortLinkRuntime(shortLinkConfigFromEnv(process.env), { env: process.env }));
}

/** Replaces the process's runtime (tests), or forgets it so the next use reads the environment again. */
export function setShortLinkRuntime(runtime: ShortLinkRuntime | undefined): void {
  current = runtime;
}
