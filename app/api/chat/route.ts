/**
 * POST /api/chat: one model step for the browser's code-mode chat, streamed as UI message
 * chunks. The browser sends the model choice, settings and system prompt with the messages,
 * and runs the tools itself; see lib/model/server/chat-handler.ts.
 */
import { chatRoute } from "@/lib/routes/server/api-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
// A long model answer streams for a while; the platform default may cut it.
export const maxDuration = 300;

export const POST = chatRoute;
