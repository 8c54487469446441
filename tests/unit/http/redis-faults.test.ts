/**
 * The shared store under faults, against a real redis-server: the app started before Redis,
 * Redis killed and started again, Redis frozen (SIGSTOP). Nothing hangs, nothing needs a
 * restart of the app, and /api/health says what is down (issue 28, items 1 and 2).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { openRedisConnection, RedisUnavailableError } from "@/lib/http/server/redis-connection";
import type { SharedRedis } from "@/lib/http/server/redis-connection";
import { closeSharedRedis, sharedRateLimiter } from "@/lib/http/server/shared-store";
import { checkHealth } from "@/lib/http/server/health";
import { RouteError } from "@/lib/http/route-error";
import { laterRedis, startRedis } from "../../fixtures/redis";
import type { RedisServer } from "../../fixtures/redis";

const COMMAND_TIMEOUT = 300;
// Far above the command deadline: a command that is still pending here has hung.
const HANG = 5_000;

const servers: RedisServer[] = [];
const connections: SharedRedis[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await closeSharedRedis();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

function connect(url: string): { redis: SharedRedis; log: string[] } {
  const log: string[] = [];
  const redis = openRedisConnection(url, { commandTimeoutMs: COMMAND_TIMEOUT, maxBackoffMs: 200, log: (message) => log.push(message) });
  connections.push(redis);
  return { redis, log };
}

/** The command's outcome, or "hung" when it neither answered nor failed within HANG ms. */
async function settle<T>(work: Promise<T>): Promise<{ value: T } | { error: unknown } | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), HANG)));
  try {
    return await Promise.race([
      work.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function expectUnavailable(work: Promise<unknown>): Promise<void> {
  const outcome = await settle(work);
  expect(outcome).not.toBe("hung");
  expect(outcome).toHaveProperty("error");
  expect((outcome as { error: unknown }).error).toBeInstanceOf(RedisUnavailableError);
}

const healed = (redis: SharedRedis) => vi.waitFor(() => redis.get("k"), { timeout: 15_000, interval: 100 });

describe("a shared store that heals", () => {
  it("works when the app starts before Redis", async () => {
    const later = await laterRedis();
    const { redis, log } = connect(later.url);
    await expectUnavailable(redis.get("k"));
    expect(redis.status().state).toBe("down");
    expect(await redis.ping()).toBe(false);
    servers.push(await later.start());
    await expect(healed(redis)).resolves.toBeNull();
    expect(redis.status().state).toBe("up");
    expect(log.some((line) => line.includes("Redis is down"))).toBe(true);
    expect(log.at(-1)).toContain("Redis is up");
  });

  it("fails at once while Redis is gone, and heals when it is back, with no restart", async () => {
    const server = await startRedis();
    servers.push(server);
    const { redis } = connect(server.url);
    await redis.eval("return redis.call('SET', KEYS[1], ARGV[1])", { keys: ["k"], arguments: ["before"] });
    await server.kill();
    await expectUnavailable(redis.get("k"));
    // Many requests during the outage: every one fails, none waits.
    const during = await Promise.all(Array.from({ length: 50 }, () => settle(redis.get("k"))));
    expect(during.filter((outcome) => outcome === "hung")).toEqual([]);
    await server.restart();
    // A fresh server (no persistence): the key is gone, the connection works.
    await expect(healed(redis)).resolves.toBeNull();
  });

  it("answers a frozen Redis with an error within the deadline, then heals when it thaws", async () => {
    const server = await startRedis();
    servers.push(server);
    const { redis } = connect(server.url);
    await expect(redis.get("k")).resolves.toBeNull();
    server.freeze();
    const frozen = await Promise.all(Array.from({ length: 20 }, () => settle(redis.get("k"))));
    expect(frozen.filter((outcome) => outcome === "hung")).toEqual([]);
    for (const outcome of frozen) expect((outcome as { error: unknown }).error).toBeInstanceOf(RedisUnavailableError);
    expect(redis.status().state).toBe("down");
    // Once it is known to be down, later requests do not even wait for the deadline.
    await expectUnavailable(redis.get("k"));
    expect(await redis.ping()).toBe(false);
    server.thaw();
    await expect(healed(redis)).resolves.toBeNull();
    expect(await redis.ping()).toBe(true);
  });

  it("the routes' limiters answer 503 during an outage and serve again after it; health says what is down", async () => {
    const server = await startRedis();
    servers.push(server);
    const env = { CMP_REDIS_URL: server.url, CMP_REDIS_PREFIX: "faults:", CMP_REDIS_TIMEOUT_MS: String(COMMAND_TIMEOUT) };
    const limiter = sharedRateLimiter(env, "x", { limit: 100, windowMs: 60_000 });
    if (!limiter) throw new Error("CMP_REDIS_URL was set");
    expect((await limiter.take("a")).ok).toBe(true);
    expect(await checkHealth(env)).toEqual({ ok: true, sharedStore: "up" });
    expect(await checkHealth({})).toEqual({ ok: true, sharedStore: "off" });
    const original = console.error;
    console.error = () => undefined;
    try {
      await server.kill();
      const refused = await settle(Promise.resolve(limiter.take("a")));
      expect(refused).not.toBe("hung");
      const error = (refused as { error: unknown }).error;
      expect(error).toBeInstanceOf(RouteError);
      expect((error as RouteError).code).toBe("unavailable:http");
      // The answer names nothing: no address, no port.
      expect((error as RouteError).message).not.toContain(String(server.port));
      expect(await checkHealth(env)).toEqual({ ok: false, sharedStore: "down" });
      await server.restart();
      await vi.waitFor(async () => expect((await limiter.take("a")).ok).toBe(true), { timeout: 15_000, interval: 100 });
      expect(await checkHealth(env)).toEqual({ ok: true, sharedStore: "up" });
    } finally {
      console.error = original;
    }
  });
});
