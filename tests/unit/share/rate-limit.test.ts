import { describe, expect, it } from "vitest";
import { clientKey, UNKNOWN_CLIENT } from "@/lib/http/server/client-address";
import { createRateLimiter } from "@/lib/http/rate-limit";

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

describe("clientKey", () => {
  const SERVE = { CMP_SERVER: "serve" };
  it.each([
    [{}, SERVE, UNKNOWN_CLIENT],
    // serve.mjs replaced the header with the socket's address: the one entry is the client.
    [{ "x-forwarded-for": "203.0.113.7" }, SERVE, "203.0.113.7"],
    [{ "x-forwarded-for": " , " }, SERVE, UNKNOWN_CLIENT],
    [{ "x-forwarded-for": "x".repeat(500) }, SERVE, "x".repeat(64)],
    // One trusted proxy: it appended what it saw, serve.mjs appended the proxy's socket.
    [{ "x-forwarded-for": "6.6.6.6, 2001:DB8::1, 10.0.0.2" }, { ...SERVE, CMP_TRUST_PROXY: "1" }, "2001:db8::1"],
    // Not written by serve.mjs (plain next start): never believed.
    [{ "x-forwarded-for": "203.0.113.7" }, {}, UNKNOWN_CLIENT],
    [{ "x-real-ip": "203.0.113.7" }, SERVE, UNKNOWN_CLIENT],
  ])("%j with %j → %s", (headers, env, key) => expect(clientKey(new Headers(headers), env)).toBe(key));
});

describe("costs", () => {
  it("takes `cost` tokens, and refuses a cost above the whole bucket for one window", () => {
    const limiter = createRateLimiter({ limit: 100, windowMs: 1_000, now: () => 0 });
    expect(limiter.take("a", 60)).toEqual({ ok: true, remaining: 40 });
    expect(limiter.take("a", 60)).toEqual({ ok: false, retryAfterMs: 200 });
    expect(limiter.take("b", 101)).toEqual({ ok: false, retryAfterMs: 1_000 });
  });
});
