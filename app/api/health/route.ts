/**
 * GET /api/health: for load balancers and probes; see lib/http/server/health.ts.
 */
import { healthRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = healthRoute;
