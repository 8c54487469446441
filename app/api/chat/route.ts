/**
 * POST /api/chat: one model step for the browser's code-mode chat, streamed as UI message
 * chunks. The browser sends the model choice, settings and system prompt with the messages,
 * and runs the tools itself; see lib/model/server/chat-handler.ts.
 */
import { route } from "@/lib/http/server/route";
import { handleChatRequest } from "@/lib/model/server/chat-handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
// A long model answer streams for a while; the platform default may cut it.
export const maxDuration = 300;

/** Streams one model step. */
export const POST = route({ surface: "chat" }, (request) => handleChatRequest(request, { env: process.env }));
