/**
 * Many instances behind a load balancer share rate limits and short links through Redis
 * (CMP_REDIS_URL). A real redis-server on loopback; two runtimes stand for two instances.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedRedis, sharedRateLimiter } from "@/lib/http/server/shared-store";
import { RouteError } from "@/lib/http/route-error";
import { encodeShareState } from "@/lib/share/encode";
import { createRedisShareStore } from "@/lib/share/server/redis-store";
import type { ShareState } from "@/lib/share/schema";
import { loadShortLink, saveShortLink } from "@/lib/share/server/short-link";
import { createShortLinkRuntime, shortLinkConfigFromEnv } from "@/lib/share/server/short-link-runtime";
import { startRedis } from "../../fixtures/redis";
import type { RedisServer } from "../../fixtures/redis";
import { sharedRedis } from "@/lib/http/server/shared-store";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "share", "fixtures", "v1-state.json"), "utf8")) as ShareState;
let redis: RedisServer;
let run = 0;
/** A fresh key prefix per test, so tests share one server without sharing state. */
const env = () => ({ CMP_REDIS_URL: redis.url, CMP_REDIS_PREFIX: `t${++run}:` });

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await closeSharedRedis();
  await redis.stop();
});

describe("shared rate limits", () => {
  it("two instances draw from one bucket per client", async () => {
    const e = env();
    const a = sharedRateLimiter(e, "proxy:client", { limit: 3, windowMs: 60_000 });
    const b = sharedRateLimiter(e, "proxy:client", { limit: 3, windowMs: 60_000 });
    if (!a || !b) throw new Error("CMP_REDIS_URL was set");
    const decisions = [await a.take("alice"), await b.take("alice"), await a.take("alice"), await b.take("alice")];
    expect(decisions.map((d) => d.ok)).toEqual([true, true, true, false]);
    const refused = decisions[3];
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(15_000);
    expect((await b.take("bob")).ok).toBe(true);
    // A cost larger than the bucket can never be paid.
    expect(await a.take("carol", 4)).toEqual({ ok: false, retryAfterMs: 60_000 });
  });

  it("is absent without CMP_REDIS_URL, so the in-process limiter is used", () => {
    expect(sharedRateLimiter({}, "x", { limit: 1, windowMs: 1_000 })).toBeUndefined();
  });

  it("answers 503 when Redis cannot be reached", async () => {
    const gone = sharedRateLimiter({ CMP_REDIS_URL: "redis://127.0.0.1:1/0" }, "x", { limit: 1, windowMs: 1_000 });
    const original = console.error;
    console.error = () => undefined;
    try {
      const error = await Promise.resolve(gone?.take("a")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RouteError);
      expect((error as RouteError).code).toBe("unavailable:http");
    } finally {
      console.error = original;
    }
  });
});

describe("shared short links", () => {
  it("a link saved by one instance opens on another", async () => {
    const e = env();
    const one = createShortLinkRuntime(shortLinkConfigFromEnv(e), { env: e });
    const two = createShortLinkRuntime(shortLinkConfigFromEnv(e), { env: e });
    const saved = await saveShortLink(one.store, await encodeShareState(base));
    if (!saved.ok) throw saved.error;
    expect(await saveShortLink(two.store, await encodeShareState(base))).toEqual({ ok: true, id: saved.id, created: false });
    expect((await loadShortLink(two.store, saved.id)).ok).toBe(true);
  });

  it("evicts the oldest first past the total cap, and refuses only a snapshot larger than the cap", async () => {
    const e = env();
    const first = await encodeShareState(base);
    const store = createRedisShareStore({ redis: sharedRedis(e)!, prefix: e.CMP_REDIS_PREFIX, maxTotalBytes: first.length * 2 + 10, ttlMs: 60_000 });
    const ids: string[] = [];
    for (const code of ["return 1;", "return 2;", "return 3;"]) {
      const saved = await saveShortLink(store, await encodeShareState({ ...base, code }));
      if (!saved.ok) throw saved.error;
      ids.push(saved.id);
    }
    const opened = await Promise.all(ids.map(async (id) => (await loadShortLink(store, id)).ok));
    expect(opened).toEqual([false, true, true]);
    const tiny = createRedisShareStore({ redis: sharedRedis(e)!, prefix: `${e.CMP_REDIS_PREFIX}tiny:`, maxTotalBytes: 10, ttlMs: 60_000 });
    expect(await saveShortLink(tiny, first)).toMatchObject({ ok: false, error: { code: "full:share" } });
  });

  it("expires snapshots after the TTL", async () => {
    const e = env();
    const store = createRedisShareStore({ redis: sharedRedis(e)!, prefix: e.CMP_REDIS_PREFIX, maxTotalBytes: 1024 * 1024, ttlMs: 150 });
    const saved = await saveShortLink(store, await encodeShareState(base));
    if (!saved.ok) throw saved.error;
    expect((await loadShortLink(store, saved.id)).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await loadShortLink(store, saved.id)).toMatchObject({ ok: false, error: { code: "not_found:share" } });
  });
});
