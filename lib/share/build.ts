/**
 * Builds a share state from the playground's live pieces. Every field is copied by name from
 * the allow-list; input objects are never spread, so a secret riding on an extra property
 * (an `apiKey` on the model, `headers` on a tool, a token on a message) cannot slip through.
 * Loose JSON (message parts, runs) also goes through redactSecrets, as the timeline does.
 * What does not fit or cannot be shared is left out and listed in `omitted`. Pure.
 */
import type { ToolDefinition } from "../codemode/types";
import { redactSecrets } from "../secrets/redact";
import { MAX_DATA_CHARS, parseDataGlobals } from "../editor/data-globals";
import type { ServerConfig } from "../mcp/types";
import { DEFAULT_LIMITS } from "../sandbox/limits";
import type { SandboxLimits } from "../sandbox/types";
import { SHARE_CAPS } from "./caps";
import { copyJsonObject, jsonByteLength } from "./json-value";
import type { JsonObject } from "./json-value";
import { cleanLabel, cleanText } from "./labels";
import { SHARE_VERSION, shareStateSchema } from "./schema";
import type { ShareLimits, ShareMessage, ShareModel, ShareServer, ShareState, ShareTool, ToolSnapshot } from "./schema";
import { toShareServer } from "./server-to-share";
import type { Skill } from "../skills/skill";
import { skillsFileText } from "../skills/skill-file";

/** The live pieces a share is made from; every field is optional. */
export interface ShareInputs {
  servers?: readonly Readonly<ServerConfig>[];
  /** The tools each server listed, as seen now (`ServerTools` from lib/codemode fits). */
  toolSnapshots?: readonly { name: string; tools: readonly ToolDefinition[] }[];
  systemPrompt?: string;
  /** Provider and model id only; anything else on the object is ignored. */
  model?: { provider: string; id: string };
  /** AI SDK UI messages (`{ id, role, parts }`). */
  messages?: readonly unknown[];
  code?: string;
  /** The editor's Inputs text (a JSON object whose keys become the code's globals). */
  inputs?: string;
  limits?: Partial<SandboxLimits>;
  /** Recorded runs (plain JSON objects), replayable offline. */
  runs?: readonly unknown[];
  /** Skills the person chose to share (their code, schemas and tests; secrets removed as an export does). */
  skills?: readonly Skill[];
}

/** A built state and what was left out of it, for the Share dialog to show. */
export interface ShareBuild {
  state: ShareState;
  omitted: string[];
}

const JSON_DEPTH = SHARE_CAPS.jsonDepth - 8; // room for the envelope around each loose value
const INTEGER_LIMITS = new Set<keyof SandboxLimits>(["maxConcurrency", "maxCalls"]);
// Provider bookkeeping on message parts (signatures, item ids): bulky and of no use to a reader.
const DROPPED_PART_KEYS = ["providerMetadata", "callProviderMetadata"];

function capped<T>(items: readonly T[] | undefined, cap: number, what: string, omitted: string[]): readonly T[] {
  // Checked at run time too: the inputs come from UI state, typed but not guaranteed.
  const list: readonly T[] = Array.isArray(items) ? (items as readonly T[]) : [];
  if (list.length > cap) omitted.push(`${list.length - cap} ${what} over the limit of ${cap}`);
  return list.slice(0, cap);
}

function copyTool(tool: ToolDefinition): ShareTool | undefined {
  if (typeof tool !== "object" || tool === null || typeof tool.name !== "string") return undefined;
  const out: ShareTool = { name: cleanLabel(tool.name, "tool"), inputSchema: copyJsonObject(tool.inputSchema, JSON_DEPTH) ?? { type: "object" } };
  const title = cleanText(tool.title, SHARE_CAPS.nameChars);
  const description = cleanText(tool.description, SHARE_CAPS.descriptionChars);
  const outputSchema = copyJsonObject(tool.outputSchema, JSON_DEPTH);
  const annotations = copyJsonObject(tool.annotations, JSON_DEPTH);
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  if (outputSchema) out.outputSchema = outputSchema;
  if (annotations) out.annotations = annotations;
  return out;
}

function copySnapshots(inputs: ShareInputs, omitted: string[]): ToolSnapshot[] {
  return capped(inputs.toolSnapshots, SHARE_CAPS.servers, "tool lists", omitted).map((snapshot) => ({
    server: cleanLabel(snapshot.name, "server"),
    tools: capped(snapshot.tools, SHARE_CAPS.toolsPerServer, `tools of ${cleanLabel(snapshot.name, "server")}`, omitted).flatMap(
      (tool) => copyTool(tool) ?? [],
    ),
  }));
}

function copyPart(part: unknown): JsonObject | undefined {
  const copy = copyJsonObject(part, JSON_DEPTH);
  // Data parts are app bookkeeping, not conversation: the request inspector's `data-inspector`
  // steps hold whole provider request bodies. Default-deny, so a future data part is opt-in.
  if (!copy || typeof copy.type !== "string" || copy.type.startsWith("data-")) return undefined;
  for (const key of DROPPED_PART_KEYS) delete copy[key];
  return redactSecrets(copy);
}

function copyMessages(inputs: ShareInputs, omitted: string[]): ShareMessage[] {
  const out: ShareMessage[] = [];
  capped(inputs.messages, SHARE_CAPS.messages, "messages", omitted).forEach((message, index) => {
    if (typeof message !== "object" || message === null) return;
    const { id, role, parts } = message as { id?: unknown; role?: unknown; parts?: unknown };
    if (role !== "user" && role !== "assistant" && role !== "system") return;
    out.push({
      id: cleanLabel(id, `m${index + 1}`),
      role,
      parts: capped(Array.isArray(parts) ? (parts as unknown[]) : [], SHARE_CAPS.partsPerMessage, "message parts", omitted)
        .map(copyPart)
        .filter((part): part is JsonObject => part !== undefined),
    });
  });
  return out;
}

function copyRuns(inputs: ShareInputs, omitted: string[]): JsonObject[] {
  const out: JsonObject[] = [];
  let bytes = 2;
  for (const run of capped(inputs.runs, SHARE_CAPS.runs, "recorded runs", omitted)) {
    const copy = copyJsonObject(run, JSON_DEPTH);
    if (!copy) continue;
    const safe = redactSecrets(copy);
    bytes += jsonByteLength(safe) + 1;
    if (bytes > SHARE_CAPS.runsBytes) {
      omitted.push(`recorded runs past ${SHARE_CAPS.runsBytes} bytes`);
      break;
    }
    out.push(safe);
  }
  return out;
}

function copySkills(inputs: ShareInputs, omitted: string[]): JsonObject[] {
  const chosen = capped(inputs.skills, SHARE_CAPS.skills, "skills", omitted);
  if (chosen.length === 0) return [];
  // The export's own form: code scrubbed, tests redacted.
  const exported = (JSON.parse(skillsFileText(chosen)) as { skills: unknown[] }).skills;
  const out: JsonObject[] = [];
  let bytes = 2;
  for (const skill of exported) {
    const copy = copyJsonObject(skill, JSON_DEPTH);
    if (!copy) continue;
    const safe = redactSecrets(copy);
    bytes += jsonByteLength(safe) + 1;
    if (bytes > SHARE_CAPS.skillsBytes) {
      omitted.push(`skills past ${SHARE_CAPS.skillsBytes} bytes`);
      break;
    }
    out.push(safe);
  }
  return out;
}

/** The Inputs as JSON text, secret-looking keys and values redacted (and said); left out when they are not a valid inputs object. */
function copyInputs(text: unknown, omitted: string[]): string | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const parsed = parseDataGlobals(text);
  if (!parsed.ok) {
    omitted.push(`Inputs (${parsed.message})`);
    return undefined;
  }
  if (Object.keys(parsed.data).length === 0) return undefined;
  const safe = redactSecrets(copyJsonObject(parsed.data, JSON_DEPTH) ?? {});
  const out = JSON.stringify(safe, null, 2);
  if (out !== JSON.stringify(parsed.data, null, 2)) omitted.push("Inputs: values that look like secrets (replaced by a placeholder)");
  return out.length > MAX_DATA_CHARS ? undefined : out;
}

function copyLimits(limits: Partial<SandboxLimits> | undefined): ShareLimits | undefined {
  if (typeof limits !== "object" || limits === null) return undefined;
  const out: ShareLimits = {};
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]) {
    const value: unknown = limits[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0 && (!INTEGER_LIMITS.has(key) || Number.isInteger(value))) {
      out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function copyModel(model: ShareInputs["model"]): ShareModel | undefined {
  if (typeof model !== "object" || model === null) return undefined;
  const provider = cleanLabel(model.provider, "");
  const id = cleanLabel(model.id, "");
  return provider !== "" && id !== "" ? { provider, id } : undefined;
}

function copyText(text: unknown, cap: number, what: string, omitted: string[]): string | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  // Cutting code or a prompt would change its meaning; leave it out whole and say so.
  if (text.length > cap) {
    omitted.push(`${what} (longer than ${cap} characters)`);
    return undefined;
  }
  return text;
}

/** Builds the share state from explicit inputs; see the file comment for what is withheld. */
export function buildShareState(inputs: ShareInputs): ShareBuild {
  const omitted: string[] = [];
  const servers: ShareServer[] = [];
  for (const config of capped(inputs.servers, SHARE_CAPS.servers, "servers", omitted)) {
    const outcome = toShareServer(config);
    if (outcome.ok) servers.push(outcome.server);
    else omitted.push(outcome.reason);
    if (outcome.ok && outcome.server.hadSecrets) omitted.push(`${outcome.server.name}: secrets (headers, env values, credentials)`);
  }
  const draft = {
    version: SHARE_VERSION,
    servers,
    tools: copySnapshots(inputs, omitted),
    systemPrompt: copyText(inputs.systemPrompt, SHARE_CAPS.promptChars, "system prompt", omitted),
    model: copyModel(inputs.model),
    messages: copyMessages(inputs, omitted),
    code: copyText(inputs.code, SHARE_CAPS.codeChars, "code", omitted),
    inputs: copyInputs(inputs.inputs, omitted),
    limits: copyLimits(inputs.limits),
    runs: copyRuns(inputs, omitted),
  };
  const skills = copySkills(inputs, omitted);
  if (skills.length > 0) Object.assign(draft, { skills });
  // The builder's own output must satisfy the schema; a failure here is a bug, not bad input.
  const parsed = shareStateSchema.safeParse(draft);
  if (!parsed.success) throw new Error(`buildShareState produced an invalid state: ${parsed.error.message}`);
  return { state: parsed.data, omitted };
}
