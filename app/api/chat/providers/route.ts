/** GET /api/chat/providers: which model providers have a key on the server (booleans, never the keys). */
import { route } from "@/lib/http/server/route";
import { handleProvidersRequest } from "@/lib/model/server/chat-handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Lists server-side key availability and how a caller reaches it. */
export const GET = route({ surface: "chat" }, (request) => handleProvidersRequest(request, process.env));
