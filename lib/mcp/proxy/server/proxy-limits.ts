/**
 * The MCP proxy's rate limiters in hosted mode, made once per process from the environment:
 * MCP_PROXY_RATE_PER_MINUTE per client (default 240: an MCP session makes a few requests per
 * tool call) and MCP_PROXY_GLOBAL_RATE_PER_MINUTE over all clients (default 6 000). With
 * CMP_REDIS_URL set they are shared by every instance (lib/http/server/shared-store.ts).
 */
import "server-only";
import { positiveSetting } from "../../../http/server/deployment";
import type { Env } from "../../../http/server/deployment";
import { createRateLimiter } from "../../../http/rate-limit";
import type { RateLimiter } from "../../../http/rate-limit";
import { sharedRateLimiter } from "../../../http/server/shared-store";

/** The two limiters the proxy route takes from. */
export interface ProxyLimiters {
  perClient: RateLimiter;
  global: RateLimiter;
}

const MINUTE = 60_000;
// One pair per process, kept on globalThis: the Next route and the page's channel
// (lib/channel/node) are bundled apart, and a client must not get a bucket on each path.
const KEY = Symbol.for("code-mode-playground.proxy-limiters");
const holder = globalThis as unknown as Record<symbol, ProxyLimiters | undefined>;

/** The process's limiters, created on first use. */
export function proxyLimiters(env: Env): ProxyLimiters {
  const existing = holder[KEY];
  if (existing) return existing;
  const make = (name: string, limit: number) =>
    sharedRateLimiter(env, `proxy:${name}`, { limit, windowMs: MINUTE }) ?? createRateLimiter({ limit, windowMs: MINUTE });
  const made = {
    perClient: make("client", positiveSetting(env.MCP_PROXY_RATE_PER_MINUTE, 240)),
    global: make("global", positiveSetting(env.MCP_PROXY_GLOBAL_RATE_PER_MINUTE, 6_000)),
  };
  holder[KEY] = made;
  return made;
}

/** Forgets the limiters (tests), so the next use reads the environment again. */
export function resetProxyLimiters(): void {
  holder[KEY] = undefined;
}
