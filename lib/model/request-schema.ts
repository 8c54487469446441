/**
 * The body of POST /api/chat, as a zod schema. The browser's transport builds it (see
 * chat-request.ts) and the route parses it; messages are checked loosely here and fully by
 * the AI SDK's validateUIMessages in the route.
 */
import * as z from "zod";
import { PROVIDER_IDS } from "./providers";
import { TOOL_MODES } from "./tool-handler";

/** Longest system prompt accepted (the declarations of a large catalog fit well inside). */
export const MAX_INSTRUCTIONS_CHARS = 400_000;
/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Most messages in one conversation. */
export const MAX_MESSAGES = 1_000;

/** Which model, and the browser-held key or base URL when the person typed one. */
export const modelChoiceSchema = z.object({
  provider: z.enum(PROVIDER_IDS),
  modelId: z.string().trim().min(1, "Type a model id.").max(200),
  apiKey: z.string().max(1_000).optional(),
  baseURL: z
    .url({ protocol: /^https?$/, error: "The base URL must be an http(s) URL." })
    .max(2_000)
    .optional(),
});

/** Sampling settings. */
export const generationSettingsSchema = z.object({
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
});

/** JSON levels a classic tool's schema may nest: real schemas use a handful; far deeper ones exhaust the converters' stacks. */
export const MAX_SCHEMA_DEPTH = 128;

/** Whether `value` nests objects or arrays deeper than `max` levels; walks without recursion, so no depth can overflow it. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** POST /api/chat body (DefaultChatTransport adds id, messages, trigger and messageId). */
export const chatRequestSchema = z.object({
  id: z.string().max(200).optional(),
  trigger: z.string().max(50).optional(),
  messageId: z.string().max(200).optional(),
  messages: z
    .array(z.looseObject({ id: z.string(), role: z.enum(["system", "user", "assistant"]), parts: z.array(z.unknown()) }))
    .min(1)
    .max(MAX_MESSAGES),
  model: modelChoiceSchema,
  instructions: z.string().max(MAX_INSTRUCTIONS_CHARS),
  mode: z.enum(["declarations", "search"]).default("declarations"),
  /** Why the page chose `mode` (lib/codemode/prompt-form.ts), shown in the request inspector. */
  modeWhy: z.string().max(500).optional(),
  /** Code mode (one program per step), classic tool calling (every MCP tool offered as a tool), or classic with tool search. */
  toolMode: z.enum(TOOL_MODES).default("code"),
  /** Classic mode's tools: sanitised name, description, JSON Schema. */
  classicTools: z
    .array(
      z.object({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Tool names are 1 to 64 letters, digits, _ or -."),
        description: z.string().max(20_000),
        inputSchema: z
          .record(z.string(), z.unknown())
          .refine((schema) => !nestedDeeperThan(schema, MAX_SCHEMA_DEPTH), `is nested deeper than ${MAX_SCHEMA_DEPTH} levels of JSON`),
      }),
    )
    .max(2_000)
    .default([]),
  settings: generationSettingsSchema.default({}),
  /** The operator's access secret, which unlocks the server's keys on a hosted playground. */
  access: z.string().max(1_000).optional(),
});

/** A parsed chat request. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;
/** What the browser adds to the transport's body (everything but messages and ids). */
export type ChatRequestExtras = Omit<z.input<typeof chatRequestSchema>, "id" | "trigger" | "messageId" | "messages">;
