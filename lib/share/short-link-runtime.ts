/**
 * The short-link store and rate limiters a server process uses, configured from the
 * environment once, on first use:
 *   CMP_SHARE_DIR                     data directory (default `.data/shares`, relative to the cwd)
 *   CMP_SHARE_MAX_TOTAL_BYTES         total size of all snapshots (default 512 MB)
 *   CMP_SHARE_RATE_PER_MINUTE         new short links per client per minute (default 10)
 *   CMP_SHARE_GLOBAL_RATE_PER_MINUTE  new short links per minute over all clients (default 300)
 *   CMP_SHARE_READ_RATE_PER_MINUTE    short-link reads per client per minute (default 120)
 *   CMP_SHARE_DISABLE=1               no short links (links and files still work)
 * Server only (it reaches the file system through file-store.ts).
 */
import { createFileShareStore } from "./file-store";
import { createRateLimiter } from "./rate-limit";
import type { RateLimiter } from "./rate-limit";
import type { ShareStore } from "./store";

/** Settings read from the environment. */
export interface ShortLinkConfig {
  enabled: boolean;
  dir: string;
  maxTotalBytes: number;
  perClientPerMinute: number;
  globalPerMinute: number;
  readsPerClientPerMinute: number;
}

/** What the routes use. */
export interface ShortLinkRuntime {
  enabled: boolean;
  store: ShareStore;
  /** Taken per client key on every create. */
  createLimiter: RateLimiter;
  /** Taken under one key on every create: backs up the per-client limit against forged client keys. */
  globalCreateLimiter: RateLimiter;
  readLimiter: RateLimiter;
}

const MINUTE = 60_000;

function positive(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text.trim() !== "" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Reads the settings; unset or invalid values fall back to the defaults. */
export function shortLinkConfigFromEnv(env: Readonly<Record<string, string | undefined>>): ShortLinkConfig {
  return {
    enabled: !/^(1|true|yes)$/i.test(env.CMP_SHARE_DISABLE ?? ""),
    dir: env.CMP_SHARE_DIR?.trim() || ".data/shares",
    maxTotalBytes: positive(env.CMP_SHARE_MAX_TOTAL_BYTES, 512 * 1024 * 1024),
    perClientPerMinute: positive(env.CMP_SHARE_RATE_PER_MINUTE, 10),
    globalPerMinute: positive(env.CMP_SHARE_GLOBAL_RATE_PER_MINUTE, 300),
    readsPerClientPerMinute: positive(env.CMP_SHARE_READ_RATE_PER_MINUTE, 120),
  };
}

/** Builds a runtime; `store` and `now` are injectable for tests. */
export function createShortLinkRuntime(config: ShortLinkConfig, options: { store?: ShareStore; now?: () => number } = {}): ShortLinkRuntime {
  const limiter = (limit: number) => createRateLimiter({ limit, windowMs: MINUTE, ...(options.now ? { now: options.now } : {}) });
  return {
    enabled: config.enabled,
    store: options.store ?? createFileShareStore({ dir: config.dir, maxTotalBytes: config.maxTotalBytes }),
    createLimiter: limiter(config.perClientPerMinute),
    globalCreateLimiter: limiter(config.globalPerMinute),
    readLimiter: limiter(config.readsPerClientPerMinute),
  };
}

let current: ShortLinkRuntime | undefined;

/** The process's runtime, created from process.env on first use. */
export function shortLinkRuntime(): ShortLinkRuntime {
  return (current ??= createShortLinkRuntime(shortLinkConfigFromEnv(process.env)));
}

/** Replaces the process's runtime (tests), or forgets it so the next use reads the environment again. */
export function setShortLinkRuntime(runtime: ShortLinkRuntime | undefined): void {
  current = runtime;
}
