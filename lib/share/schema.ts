/**
 * The share state: an allow-list of what a shared playground may carry. Every object is a zod
 * object that strips unknown keys, so a field not named here never survives a parse, whoever
 * wrote the payload. What is deliberately absent: server headers, stdio env values, cwd, ids,
 * model API keys and base URLs. A server only says that it had secrets and where they went
 * (`secrets`: header / env / query names, never values), so the recipient can be asked for them.
 *
 * The loose parts (tool schemas, message parts, recorded runs) are plain JSON, bounded by
 * SHARE_CAPS; runs in particular are "an array of JSON objects" until the run-record format in
 * lib/timeline settles, at which point this schema should name its fields.
 */
import { MAX_DATA_CHARS, parseDataGlobals } from "../editor/data-globals";
import { visibleText } from "../text/hidden-characters";
import * as z from "zod";
import type { SandboxLimits } from "../sandbox/types";
import { isServerUrl } from "../mcp/server-input";
import { SHARE_CAPS } from "./caps";
import { jsonByteLength } from "./json-value";
import type { JsonObject, JsonValue } from "./json-value";
import { isSafeLabel, SLOT_NAME } from "./labels";

/** The format version this app writes. Older versions are migrated on open (migrate.ts). */
export const SHARE_VERSION = 1;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);
const jsonObject: z.ZodType<JsonObject> = z.record(z.string(), jsonValue);

const label = z.string().min(1, "must not be empty").max(SHARE_CAPS.nameChars).refine(isSafeLabel, "must not contain control or bidi-override characters");

/**
 * App routes a share may point at: the built-in demo servers only. The registry accepts any
 * `/api/…` route, but a link has no business aiming someone's browser at the proxy or the
 * stdio bridge.
 */
const SHAREABLE_APP_ROUTE = /^\/api\/demo-mcp\/[A-Za-z0-9_-]+\/?(?:\?[^#\s]*)?$/;

/** True for an http(s) URL without user:password in it, or a demo-server route. */
export function isShareableUrl(url: string): boolean {
  if (!isServerUrl(url)) return false;
  if (url.startsWith("/")) return SHAREABLE_APP_ROUTE.test(url);
  const parsed = new URL(url);
  return parsed.username === "" && parsed.password === "";
}

/** Where a secret the original config had would go; the value itself is never shared. */
export const secretSlotSchema = z.object({
  where: z.enum(["header", "env", "query", "url-credentials", "arg"]),
  /** Header, env var, query parameter or flag name; "userinfo" for URL credentials. */
  name: z.string().regex(SLOT_NAME, "must be a header, variable or flag name"),
});

/** A shared server: enough to connect again, never the secrets it used. */
export const shareServerSchema = z
  .object({
    name: label,
    transport: z.enum(["streamable-http", "sse", "stdio"]),
    url: z.string().max(SHARE_CAPS.urlChars).refine(isShareableUrl, "must be an http(s) URL without credentials").optional(),
    command: visibleText(z.string().min(1).max(SHARE_CAPS.argChars)).optional(),
    args: z
      .array(visibleText(z.string().max(SHARE_CAPS.argChars)))
      .max(SHARE_CAPS.args)
      .optional(),
    /** The sender's protocol era setting (a remote server's; docs/mcp-client.md, "Protocol eras"). */
    protocolEra: z.enum(["modern", "legacy"]).optional(),
    /** True when the original config had headers, env, credentials or secret-looking args. */
    hadSecrets: z.boolean(),
    secrets: z.array(secretSlotSchema).max(SHARE_CAPS.secretSlots).default([]),
  })
  .superRefine((server, ctx) => {
    const stdio = server.transport === "stdio";
    if (stdio && server.command === undefined) ctx.addIssue({ code: "custom", path: ["command"], message: "a stdio server needs a command" });
    if (!stdio && server.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "a remote server needs a URL" });
    if (stdio && server.url !== undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "a stdio server has no URL" });
    if (server.protocolEra !== undefined && server.transport !== "streamable-http") {
      ctx.addIssue({ code: "custom", path: ["protocolEra"], message: "only a Streamable HTTP server has an era to choose" });
    }
    if (!stdio && (server.command !== undefined || server.args !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["command"], message: "a remote server has no command" });
    }
  });

/** One tool as its server listed it when the share was made. */
export const shareToolSchema = z.object({
  name: label,
  title: z.string().max(SHARE_CAPS.nameChars).optional(),
  description: z.string().max(SHARE_CAPS.descriptionChars).optional(),
  inputSchema: jsonObject,
  outputSchema: jsonObject.optional(),
  annotations: jsonObject.optional(),
});

/** The tools one server listed: lets the recipient read the typed API without connecting. */
export const toolSnapshotSchema = z.object({
  server: label,
  tools: z.array(shareToolSchema).max(SHARE_CAPS.toolsPerServer),
});

/** Which model the chat used; keys and endpoints are never part of it. */
export const shareModelSchema = z.object({ provider: label, id: label });

/** One chat message: AI SDK UI message shape, parts kept as plain JSON with a `type`. */
export const shareMessageSchema = z.object({
  id: z.string().max(SHARE_CAPS.nameChars),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(jsonObject.refine((part) => typeof part.type === "string", "a message part needs a string type")).max(SHARE_CAPS.partsPerMessage),
});

const limit = z.number().positive().finite();

/** Sandbox limits the sharer ran with; any subset. Upper bounds are applied on open (see decode). */
export const shareLimitsSchema = z.object({
  memoryBytes: limit.optional(),
  stackBytes: limit.optional(),
  cpuMs: limit.optional(),
  wallMs: limit.optional(),
  callTimeoutMs: limit.optional(),
  maxConcurrency: limit.int().optional(),
  maxCalls: limit.int().optional(),
  resultBytes: limit.optional(),
  logBytes: limit.optional(),
});
// Compile-time check that the schema names exactly the sandbox's limits.
type LimitKeys = keyof z.infer<typeof shareLimitsSchema>;
const _sameLimitKeys: [LimitKeys, keyof SandboxLimits] extends [keyof SandboxLimits, LimitKeys] ? true : never = true;
void _sameLimitKeys;

/** Recorded runs, replayable offline. Loose until lib/timeline's run-record schema lands. */
export const shareRunsSchema = z
  .array(jsonObject)
  .max(SHARE_CAPS.runs)
  .refine((runs) => jsonByteLength(runs) <= SHARE_CAPS.runsBytes, `recorded runs must stay under ${SHARE_CAPS.runsBytes} bytes`);

/** Skills (lib/skills/), read strictly as a skills file when the share is opened, and held for review. */
export const shareSkillsSchema = z
  .array(jsonObject)
  .max(SHARE_CAPS.skills)
  .refine((skills) => jsonByteLength(skills) <= SHARE_CAPS.skillsBytes, `skills must stay under ${SHARE_CAPS.skillsBytes} bytes`);

/** The whole share state, current version. */
export const shareStateSchema = z.object({
  version: z.literal(SHARE_VERSION),
  servers: z.array(shareServerSchema).max(SHARE_CAPS.servers).default([]),
  tools: z.array(toolSnapshotSchema).max(SHARE_CAPS.servers).default([]),
  systemPrompt: z.string().max(SHARE_CAPS.promptChars).optional(),
  model: shareModelSchema.optional(),
  messages: z.array(shareMessageSchema).max(SHARE_CAPS.messages).default([]),
  code: z.string().max(SHARE_CAPS.codeChars).optional(),
  /** The code's Inputs (the editor's `data` globals), as JSON object text (lib/editor/data-globals.ts). */
  inputs: z
    .string()
    .max(MAX_DATA_CHARS)
    .refine((text) => parseDataGlobals(text).ok, "must be a JSON object whose keys can be globals")
    .optional(),
  limits: shareLimitsSchema.optional(),
  runs: shareRunsSchema.default([]),
  skills: shareSkillsSchema.optional(),
});

/** A validated share state. */
export type ShareState = z.infer<typeof shareStateSchema>;
/** A shared server. */
export type ShareServer = z.infer<typeof shareServerSchema>;
/** Where a withheld secret would go. */
export type SecretSlot = z.infer<typeof secretSlotSchema>;
/** One tool in a snapshot. */
export type ShareTool = z.infer<typeof shareToolSchema>;
/** One server's tool snapshot. */
export type ToolSnapshot = z.infer<typeof toolSnapshotSchema>;
/** A shared chat message. */
export type ShareMessage = z.infer<typeof shareMessageSchema>;
/** The shared model choice. */
export type ShareModel = z.infer<typeof shareModelSchema>;
/** Shared sandbox limits. */
export type ShareLimits = z.infer<typeof shareLimitsSchema>;
