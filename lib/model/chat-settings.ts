/**
 * The chat's settings and the API keys typed in the browser, as stored in localStorage.
 * Keys live under their own storage key, apart from the settings, so "forget keys" is one
 * removal and nothing else (a share link, an export of the settings) can pick them up.
 * Pure over a Storage-like interface; corrupt or foreign data falls back to defaults.
 */
import * as z from "zod";
import { DEFAULT_MAX_STEPS } from "./loop-policy";
import { DEFAULT_RESULT_BUDGET_TOKENS } from "./result-budget";
import { PROVIDER_IDS, type ProviderId, type ServerKeyStatus } from "./providers";
import { TOOL_MODES } from "./tool-handler";
import { DEFAULT_DECLARATIONS_BUDGET_TOKENS, DISCOVERY_CHOICES } from "../codemode/prompt-form";
import type { RemovableTextStorage } from "../storage/key-value";

/** localStorage key of the settings. */
export const SETTINGS_STORAGE_KEY = "cmp.chat.settings.v1";
/** localStorage key of the browser-typed API keys (and nothing else). */
export const KEYS_STORAGE_KEY = "cmp.chat.keys.v1";

const settingsSchema = z.object({
  /** Unset until the person picks one: then a provider with a server key, else the demo. */
  provider: z.enum(PROVIDER_IDS).optional(),
  /** Model id per provider, so switching back keeps what was typed. */
  models: z.partialRecord(z.enum(PROVIDER_IDS), z.string().max(200)).default({}),
  baseURL: z.string().max(2_000).default(""),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
  maxSteps: z.number().int().min(1).max(100).default(DEFAULT_MAX_STEPS),
  /** Unset: on when a connected server has destructive tools. */
  stepMode: z.boolean().optional(),
  /** Step mode: approving a program covers its destructive calls, unless this asks for each one as well. */
  askEachDestructive: z.boolean().default(false),
  returnDirectly: z.boolean().default(false),
  /** Tokens a program's value may take before it reaches the model cut, with a note. */
  resultBudgetTokens: z.number().int().min(200).max(200_000).default(DEFAULT_RESULT_BUDGET_TOKENS),
  /** Every declaration, tool search, or (auto) tool search once the declarations pass the budget (lib/codemode/prompt-form.ts). */
  discovery: z.enum(DISCOVERY_CHOICES).default("auto"),
  declarationsBudgetTokens: z.number().int().min(100).max(1_000_000).default(DEFAULT_DECLARATIONS_BUDGET_TOKENS),
  /** Code mode (the model writes a program), classic tool calling (every MCP tool offered as a tool), or classic with tool search. */
  toolMode: z.enum(TOOL_MODES).default("code"),
});

/** The chat settings. */
export type ChatSettings = z.infer<typeof settingsSchema>;

const keysSchema = z.partialRecord(z.enum([...PROVIDER_IDS, "access"]), z.string().max(1_000));
/** API keys typed in this browser, per provider, and the hosted server's access secret under "access". */
export type BrowserKeys = z.infer<typeof keysSchema>;
/** A secret kept with the keys: a provider's API key, or the access secret. */
export type KeyName = keyof BrowserKeys;

/** How the server's keys are reachable, as GET /api/chat/providers reports it. */
export type ServerKeyAccess = "open" | "secret" | "off";

/**
 * The server keys this browser can actually use: behind an access secret (hosted) they count
 * only once the person typed one; the demo needs none.
 */
export function usableServerKeys(reported: ServerKeyStatus | undefined, access: ServerKeyAccess | undefined, keys: BrowserKeys): ServerKeyStatus | undefined {
  if (!reported || access !== "secret" || keys.access?.trim()) return reported;
  return Object.fromEntries(Object.keys(reported).map((id) => [id, id === "demo"])) as ServerKeyStatus;
}

/** Default settings. */
export const DEFAULT_SETTINGS: ChatSettings = settingsSchema.parse({});

function read<T>(storage: RemovableTextStorage, key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const raw = storage.getItem(key);
    if (raw === null) return fallback;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

function write(storage: RemovableTextStorage, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the settings still apply for this session.
  }
}

/** Settings saved with the older `searchMode` switch: on meant tool search, always. */
const storedSettingsSchema = z.preprocess((value) => {
  if (typeof value !== "object" || value === null || Array.isArray(value) || "discovery" in value) return value;
  const { searchMode, ...rest } = value as { searchMode?: unknown };
  return searchMode === true ? { ...rest, discovery: "search" } : rest;
}, settingsSchema);

/** Loads the settings (defaults when absent or invalid). */
export function loadSettings(storage: RemovableTextStorage): ChatSettings {
  return read(storage, SETTINGS_STORAGE_KEY, storedSettingsSchema, DEFAULT_SETTINGS);
}

/** Saves the settings. */
export function saveSettings(storage: RemovableTextStorage, settings: ChatSettings): void {
  write(storage, SETTINGS_STORAGE_KEY, settings);
}

/** Loads the browser-typed keys. */
export function loadKeys(storage: RemovableTextStorage): BrowserKeys {
  return read(storage, KEYS_STORAGE_KEY, keysSchema, {});
}

/** Saves the browser-typed keys (empty ones are dropped). */
export function saveKeys(storage: RemovableTextStorage, keys: BrowserKeys): void {
  const kept = Object.fromEntries(Object.entries(keys).filter(([, v]) => typeof v === "string" && v.trim() !== ""));
  if (Object.keys(kept).length === 0) forgetKeys(storage);
  else write(storage, KEYS_STORAGE_KEY, kept);
}

/** Removes every browser-typed key. */
export function forgetKeys(storage: RemovableTextStorage): void {
  try {
    storage.removeItem(KEYS_STORAGE_KEY);
  } catch {
    // Nothing stored, or storage disabled.
  }
}

// Order in which a server key makes a provider the default.
const SERVER_KEY_PREFERENCE: readonly ProviderId[] = ["openai", "anthropic", "google", "gateway"];

/** The provider in use: the person's choice, else one with a key (server or browser), else the offline demo. */
export function effectiveProvider(settings: ChatSettings, serverKeys: ServerKeyStatus | undefined, keys: BrowserKeys): ProviderId {
  if (settings.provider) return settings.provider;
  return SERVER_KEY_PREFERENCE.find((p) => serverKeys?.[p] === true || Boolean(keys[p])) ?? "demo";
}

/** Step mode in effect: the person's choice, else on when destructive tools are connected. */
export function effectiveStepMode(settings: ChatSettings, hasDestructiveTools: boolean): boolean {
  return settings.stepMode ?? hasDestructiveTools;
}
