/**
 * GET /api/health: what a load balancer or an operator's probe needs to know, and nothing an
 * attacker could use. 200 when this instance can serve everything, 503 naming the part that is
 * down (today: the shared store, when CMP_REDIS_URL is set). Reasons and addresses go to the
 * operator's log (redis-connection.ts), never into this answer.
 */
import "server-only";
import type { Env } from "./deployment";
import { sharedRedis } from "./shared-store";

/** The answer's body. */
export interface HealthReport {
  ok: boolean;
  /** "off" when no Redis is configured (each instance keeps its own state). */
  sharedStore: "up" | "down" | "off";
}

/** Checks every dependency now (a PING within the command deadline) and reports. */
export async function checkHealth(env: Env): Promise<HealthReport> {
  const redis = sharedRedis(env);
  const sharedStore = redis ? ((await redis.ping()) ? "up" : "down") : "off";
  return { ok: sharedStore !== "down", sharedStore };
}

/** The route's response: never cached, 503 when something is down. */
export async function healthResponse(env: Env): Promise<Response> {
  const report = await checkHealth(env);
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
