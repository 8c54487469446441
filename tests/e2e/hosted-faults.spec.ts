/**
 * Two hosted instances sharing a real redis-server, faults injected on purpose (issue 28,
 * items 1 and 2), spoken to as a load balancer and a plain HTTP client would: the instances
 * start before Redis, Redis is killed and started again, then frozen. Every request answers
 * (503 while the store is down, never a hang), /api/health says what is down, and both
 * instances heal by themselves with no restart.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { startAppServer } from "../fixtures/app-server";
import type { AppServer } from "../fixtures/app-server";
import { laterRedis } from "../fixtures/redis";
import type { RedisServer } from "../fixtures/redis";
import { encodeShareState } from "../../lib/share/encode";
import type { ShareState } from "../../lib/share/schema";

const state = JSON.parse(readFileSync(path.resolve("tests/unit/share/fixtures/v1-state.json"), "utf8")) as ShareState;
// Far above the command deadline (1 s): an answer slower than this is a hang.
const HANG_MS = 8_000;

interface Answer {
  status: number;
  body: string;
}

/** A plain HTTP request that must be answered within HANG_MS; "hung" otherwise. */
async function send(app: AppServer, pathname: string, init: RequestInit = {}): Promise<Answer | "hung"> {
  try {
    const response = await fetch(app.origin + pathname, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") return "hung";
    throw error;
  }
}

const health = (app: AppServer) => send(app, "/api/health");
const share = (app: AppServer, code: string) =>
  encodeShareState({ ...state, code }).then((text) =>
    send(app, "/api/share", { method: "POST", headers: { origin: app.origin, "content-type": "application/json" }, body: JSON.stringify({ share: text }) }),
  );
const proxy = (app: AppServer) =>
  send(app, "/api/mcp/proxy", { method: "POST", headers: { origin: app.origin, "content-type": "application/json" }, body: "{}" });

async function healed(apps: AppServer[]): Promise<void> {
  for (const app of apps) await expect.poll(async () => ((await health(app)) as Answer).status, { timeout: 20_000 }).toBe(200);
}

test.describe("hosted instances under Redis faults", () => {
  test.describe.configure({ timeout: 120_000 });

  test("start before Redis, Redis killed and restarted, Redis frozen: 503 at once, health says so, both heal without a restart", async () => {
    const later = await laterRedis();
    const env = { CMP_MODE: "hosted", CMP_REDIS_URL: later.url, CMP_REDIS_PREFIX: "e2e-faults:", CMP_LOCAL_TOKEN: "" };
    const [a, b] = await Promise.all([startAppServer({ env }), startAppServer({ env })]);
    const apps = [a, b];
    let redis: RedisServer | undefined;
    try {
      // 1. The instances started first: every request answers 503, none hangs.
      expect(await health(a)).toEqual({ status: 503, body: JSON.stringify({ ok: false, sharedStore: "down" }) });
      expect(await share(a, "return 1;")).toMatchObject({ status: 503 });
      expect(await proxy(b)).toMatchObject({ status: 503 });

      // 2. Redis arrives: both heal; a link made on one opens on the other.
      redis = await later.start();
      await healed(apps);
      const made = await share(a, "return 2;");
      expect(made).toMatchObject({ status: 201 });
      const id = (JSON.parse((made as Answer).body) as { id: string }).id;
      expect(await send(b, `/api/share/${id}`)).toMatchObject({ status: 200 });
      expect((await proxy(b)) as Answer).not.toMatchObject({ status: 503 });

      // 3. Redis killed: 503 for shares and the proxy, at once; then started again.
      await redis.kill();
      const during = await Promise.all([share(a, "return 3;"), share(b, "return 4;"), proxy(a), proxy(b), health(a), health(b)]);
      for (const answer of during) expect(answer).toMatchObject({ status: 503 });
      await redis.restart();
      await healed(apps);
      expect(await share(b, "return 5;")).toMatchObject({ status: 201 });
      expect((await proxy(a)) as Answer).not.toMatchObject({ status: 503 });

      // 4. Redis frozen (SIGSTOP): answers within the deadline instead of hanging; then thawed.
      redis.freeze();
      const frozen = await Promise.all([share(a, "return 6;"), share(b, "return 7;"), proxy(a), health(b)]);
      for (const answer of frozen) expect(answer).toMatchObject({ status: 503 });
      redis.thaw();
      await healed(apps);
      expect(await share(a, "return 8;")).toMatchObject({ status: 201 });

      // Nothing a caller saw names the store's address; the operator's log says what happened.
      for (const answer of [...during, ...frozen]) expect((answer as Answer).body).not.toContain(String(redis.port));
      expect(a.stderr()).toContain("Redis is down");
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
    }
  });
});
