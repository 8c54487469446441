/**
 * POST /api/chat, framework-free so tests call it with a plain Request (GET /api/chat/providers
 * is server-keys.ts's). The chat handler parses and checks the body, resolves the model, and returns the
 * step's UI message stream; it never logs bodies or headers (they may carry a key).
 */
import "server-only";
import { RouteError } from "../../http/route-error";
import { createUIMessageStreamResponse, safeValidateUIMessages } from "ai";
import { serverKeysAllowed } from "../../http/server/access";
import { appMode } from "../../http/server/deployment";
import { readJsonBody } from "../../http/read-body";
import { allModelTools } from "../code-tools";
import { streamChat } from "../chat-stream";
import { baseUrlAllowListFromEnv, type BaseUrlPolicy } from "../base-url-guard";
import type { ResolveAll } from "../../net/server/guarded-lookup";
import type { DemoModelOptions } from "../demo/demo-model";
import { resolveModel } from "./provider-registry";
import { withoutServerKeys, type Env } from "./server-keys";
import { chatRequestSchema, MAX_BODY_BYTES } from "../request-schema";
import type { CodeModeUIMessage } from "../types";

/** Handler configuration. */
export interface ChatHandlerOptions {
  env: Env;
  /** Decides which base URLs OpenAI-compatible requests may use; default: private ones only when the app runs on loopback. */
  baseUrlPolicy?: (request: Request) => BaseUrlPolicy;
  /** Provider fetch (tests). */
  fetch?: typeof fetch;
  /** DNS for the guarded fetch of OpenAI-compatible base URLs (tests). */
  resolveAll?: ResolveAll;
  demo?: DemoModelOptions;
}

function defaultPolicy(env: Env): (request: Request) => BaseUrlPolicy {
  const allowList = baseUrlAllowListFromEnv(env);
  return (request) => ({ allowPrivate: appMode(request, env) === "local", allowList });
}

async function handle(request: Request, options: ChatHandlerOptions): Promise<Response> {
  const tooLarge = `The conversation is too large to send (over ${MAX_BODY_BYTES / 1024 / 1024} MB). Clear the chat or start a new one.`;
  const parsed = chatRequestSchema.safeParse(await readJsonBody(request, MAX_BODY_BYTES, "chat", tooLarge));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join(".")})` : "";
    throw new RouteError("bad_request:chat", `Invalid chat request${where}: ${issue?.message ?? "unknown problem"}`);
  }
  const body = parsed.data;
  const checked = await safeValidateUIMessages<CodeModeUIMessage>({ messages: body.messages, tools: allModelTools(body.classicTools) });
  if (!checked.success) throw new RouteError("bad_request:chat", `Invalid messages: ${checked.error.message}`);
  const policy = (options.baseUrlPolicy ?? defaultPolicy(options.env))(request);
  const env = serverKeysAllowed(request, options.env, body.access) ? options.env : withoutServerKeys(options.env);
  const model = resolveModel(body.model, {
    env,
    baseUrlPolicy: policy,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.resolveAll ? { resolveAll: options.resolveAll } : {}),
    ...(options.demo ? { demo: options.demo } : {}),
  });
  const stream = streamChat({
    model,
    instructions: body.instructions,
    messages: checked.data,
    mode: body.mode,
    ...(body.modeWhy ? { modeWhy: body.modeWhy } : {}),
    toolMode: body.toolMode,
    classicTools: body.classicTools,
    settings: body.settings,
    abortSignal: request.signal,
  });
  return createUIMessageStreamResponse({ stream, headers: { "cache-control": "no-store" } });
}

/** Answers POST /api/chat: a UI message stream, or a JSON error for a request that cannot start. */
export async function handleChatRequest(request: Request, options: ChatHandlerOptions): Promise<Response> {
  try {
    return await handle(request, options);
  } catch (error) {
    if (error instanceof RouteError) return error.toResponse();
    // Unexpected: answer with a generic message; the details may hold request data.
    return new RouteError("internal:chat", "The chat request could not be started.").toResponse();
  }
}
