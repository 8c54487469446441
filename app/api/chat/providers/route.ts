/** GET /api/chat/providers: which model providers have a key on the server (booleans, never the keys). */
import { handleProvidersRequest } from "@/lib/model/chat-handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Lists server-side key availability. */
export function GET(): Response {
  return handleProvidersRequest(process.env);
}
