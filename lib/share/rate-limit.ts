/**
 * A token-bucket rate limiter keyed by client. Each key holds up to `limit` tokens, refilled
 * evenly over `windowMs`; a request takes one. The clock is injected so tests step time by
 * hand. Memory is bounded: past `maxKeys` the least recently seen key is forgotten (which at
 * worst gives that client a fresh bucket). Pure apart from the injected clock.
 */

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

/** A rate limiter. */
export interface RateLimiter {
  /** Takes one token for `key` if there is one. */
  take(key: string): RateLimitDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Creates a token-bucket limiter. */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const perMs = options.limit / options.windowMs;
  const buckets = new Map<string, Bucket>();

  return {
    take(key) {
      const time = now();
      const previous = buckets.get(key);
      const refilled = previous ? Math.min(options.limit, previous.tokens + Math.max(0, time - previous.at) * perMs) : options.limit;
      // Re-insert so Map order is least recently seen first.
      buckets.delete(key);
      if (buckets.size >= maxKeys) {
        const oldest = buckets.keys().next();
        if (!oldest.done) buckets.delete(oldest.value);
      }
      if (refilled < 1) {
        buckets.set(key, { tokens: refilled, at: time });
        return { ok: false, retryAfterMs: Math.ceil((1 - refilled) / perMs) };
      }
      buckets.set(key, { tokens: refilled - 1, at: time });
      return { ok: true, remaining: Math.floor(refilled - 1) };
    },
  };
}
