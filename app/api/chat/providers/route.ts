/** GET /api/chat/providers: which model providers have a key on the server (booleans, never the keys). */
import { providersRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = providersRoute;
