import { describe, expect, it } from "vitest";
import { clientKeyFrom, UNKNOWN_CLIENT } from "@/lib/share/client-key";
import { createRateLimiter } from "@/lib/share/rate-limit";

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("createRateLimiter", () => {
  it("allows `limit` at once per client, then refuses with the wait", () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: time.now });
    expect([1, 2, 3].map(() => limiter.take("a").ok)).toEqual([true, true, true]);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterMs: 20_000 });
    // Another client has its own bucket.
    expect(limiter.take("b")).toEqual({ ok: true, remaining: 2 });
  });

  it("refills evenly over the window", () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: time.now });
    for (let i = 0; i < 3; i++) limiter.take("a");
    time.advance(19_999);
    expect(limiter.take("a").ok).toBe(false);
    time.advance(1);
    expect(limiter.take("a").ok).toBe(true);
    time.advance(10 * 60_000);
    expect(limiter.take("a")).toEqual({ ok: true, remaining: 2 });
  });

  it("refusals do not extend the wait", () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: time.now });
    limiter.take("a");
    for (let i = 0; i < 5; i++) limiter.take("a");
    time.advance(1_000);
    expect(limiter.take("a").ok).toBe(true);
  });

  it("forgets the least recently seen client past maxKeys", () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: time.now, maxKeys: 2 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("c"); // evicts a
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("c").ok).toBe(false);
  });
});

describe("clientKeyFrom", () => {
  it.each([
    [{}, UNKNOWN_CLIENT],
    [{ "x-forwarded-for": "203.0.113.7" }, "203.0.113.7"],
    [{ "x-forwarded-for": "1.1.1.1, 203.0.113.7" }, "203.0.113.7"],
    [{ "x-forwarded-for": " , " }, UNKNOWN_CLIENT],
    [{ "x-real-ip": "2001:DB8::1" }, "2001:db8::1"],
    [{ "x-forwarded-for": "x".repeat(500) }, "x".repeat(64)],
  ])("%j → %s", (headers, key) => expect(clientKeyFrom(new Headers(headers))).toBe(key));
});
