/**
 * What the browser adds to each POST /api/chat besides the messages: the model choice (with
 * the browser-typed key or base URL when there is one), the system prompt, the prompt mode
 * and the sampling settings. Pure, so the exact body is testable.
 */
import { effectiveProvider, type BrowserKeys, type ChatSettings } from "./chat-settings";
import { providerInfo, type ServerKeyStatus } from "./providers";
import type { ClassicToolSpec } from "./code-tools";
import type { ChatRequestExtras } from "./request-schema";
import type { PromptMode } from "../codemode/system-prompt";
import { isClassicMode } from "./tool-handler";

/** Inputs of a request body. */
export interface RequestInputs {
  settings: ChatSettings;
  keys: BrowserKeys;
  serverKeys: ServerKeyStatus | undefined;
  /** The system prompt in effect (default or edited) for the current mode. */
  instructions: string;
  /** The form of the typed API the prompt carries, and why (lib/codemode/prompt-form.ts). */
  form?: { mode: PromptMode; why: string };
  /** Classic mode's tools (sent only in the classic modes). */
  classicTools?: readonly ClassicToolSpec[];
}

/** The model id in use for the provider (typed, else the provider's default). */
export function modelIdFor(settings: ChatSettings, provider: ReturnType<typeof effectiveProvider>): string {
  return settings.models[provider]?.trim() || providerInfo(provider).defaultModel;
}

/** Builds the body fields the transport sends with the messages. */
export function buildRequestExtras({ settings, keys, serverKeys, instructions, form, classicTools = [] }: RequestInputs): ChatRequestExtras {
  const provider = effectiveProvider(settings, serverKeys, keys);
  const apiKey = keys[provider]?.trim();
  const baseURL = settings.baseURL.trim();
  return {
    model: {
      provider,
      modelId: modelIdFor(settings, provider),
      ...(apiKey && provider !== "demo" ? { apiKey } : {}),
      ...(provider === "openai-compatible" && baseURL ? { baseURL } : {}),
    },
    instructions,
    ...(keys.access?.trim() && provider !== "demo" ? { access: keys.access.trim() } : {}),
    mode: form?.mode ?? (settings.discovery === "search" ? "search" : "declarations"),
    ...(form && settings.toolMode === "code" ? { modeWhy: form.why } : {}),
    toolMode: settings.toolMode,
    ...(isClassicMode(settings.toolMode)
      ? { classicTools: classicTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }
      : {}),
    settings: {
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    },
  };
}
