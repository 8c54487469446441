/**
 * A token-bucket rate limiter keyed by client. Each key holds up to `limit` tokens, refilled
 * evenly over `windowMs`; a request takes one. The clock is injected so tests step time by
 * hand. Memory is bounded: past `maxKeys` the least recently seen key is forgotten (which at
 * worst gives that client a fresh bucket). Pure apart from the injected clock.
 */
import { RouteError } from "./route-error";
import type { RouteSurface } from "./route-error";

/** A limiter's settings. */
export interface RateLimitOptions {
  /** Requests allowed per window (and the burst size). */
  limit: number;
  windowMs: number;
  /** Milliseconds since some epoch; Date.now by default. */
  now?: () => number;
  /** Keys remembered at once. Default 10 000. */
  maxKeys?: number;
}

/** Allowed, or refused with the wait until the next token. */
export type RateLimitDecision = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

/** A rate limiter: in this process (createRateLimiter), or shared by every instance (shared-store.ts). */
export interface RateLimiter {
  /** Takes `cost` tokens (default 1) for `key` if there are that many. */
  take(key: string, cost?: number): RateLimitDecision | Promise<RateLimitDecision>;
}

/** The 429 for a refused decision (with Retry-After), or undefined when the request may go on. */
export function refusalFor<S extends RouteSurface>(decision: RateLimitDecision, surface: S): RouteError<S> | undefined {
  if (decision.ok) return undefined;
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return new RouteError<S>(`rate_limited:${surface}`, `Too many requests; try again in ${seconds} s.`, { retryAfterSeconds: seconds });
}

/** Takes a token from each limiter in turn; throws the first refusal. */
export async function enforceLimits<S extends RouteSurface>(surface: S, takes: ReadonlyArray<[RateLimiter, string, number?]>): Promise<void> {
  for (const [limiter, key, cost] of takes) {
    const refusal = refusalFor(await limiter.take(key, cost), surface);
    if (refusal) throw refusal;
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** An in-process limiter: `take` answers at once. */
export interface LocalRateLimiter extends RateLimiter {
  take(key: string, cost?: number): RateLimitDecision;
}

/** Creates a token-bucket limiter. */
export function createRateLimiter(options: RateLimitOptions): LocalRateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const perMs = options.limit / options.windowMs;
  const buckets = new Map<string, Bucket>();

  return {
    take(key, cost = 1) {
      const time = now();
      const previous = buckets.get(key);
      const refilled = previous ? Math.min(options.limit, previous.tokens + Math.max(0, time - previous.at) * perMs) : options.limit;
      // Re-insert so Map order is least recently seen first.
      buckets.delete(key);
      if (buckets.size >= maxKeys) {
        const oldest = buckets.keys().next();
        if (!oldest.done) buckets.delete(oldest.value);
      }
      // A cost above the whole bucket could never be paid: refuse it for a full window.
      if (cost > options.limit) {
        buckets.set(key, { tokens: refilled, at: time });
        return { ok: false, retryAfterMs: options.windowMs };
      }
      if (refilled < cost) {
        buckets.set(key, { tokens: refilled, at: time });
        return { ok: false, retryAfterMs: Math.ceil((cost - refilled) / perMs) };
      }
      buckets.set(key, { tokens: refilled - cost, at: time });
      return { ok: true, remaining: Math.floor(refilled - cost) };
    },
  };
}
