"use client";

import { useChatProviders, type UseChatProvidersResult } from "./use-chat-providers";
import { useChatSettings, type UseChatSettingsResult } from "./use-chat-settings";
import { useChatSystemPrompt, type UseChatSystemPromptResult } from "./use-chat-system-prompt";
import { CLASSIC_SYSTEM_PROMPT, type PromptMode } from "@/lib/codemode";
import type { ClassicToolSpec } from "@/lib/model/code-tools";
import { buildRequestExtras, modelIdFor } from "@/lib/model/chat-request";
import { effectiveProvider, effectiveStepMode, usableServerKeys } from "@/lib/model/chat-settings";
import type { ProviderId, ServerKeyStatus } from "@/lib/model/providers";
import type { ChatRequestExtras } from "@/lib/model/request-schema";

export interface UseChatModelResult extends UseChatSettingsResult {
  access: UseChatProvidersResult["access"];
  /** Providers with a key on the server that this browser may use. */
  serverKeys: ServerKeyStatus | undefined;
  /** The provider and model in use. */
  provider: ProviderId;
  modelId: string;
  mode: PromptMode;
  stepMode: boolean;
  systemPrompt: UseChatSystemPromptResult;
  /** The body fields of the next chat request. */
  requestExtras: () => ChatRequestExtras;
  /** The same with another tool mode or model (a compare lane); keys and prompts as configured. */
  requestExtrasFor: (lane: LaneChoice) => ChatRequestExtras;
}

/** What a compare lane changes about the chat's request. */
export interface LaneChoice {
  toolMode: "code" | "classic";
  provider: ProviderId;
  modelId: string;
}

/**
 * Which model the chat talks to and how: the persisted settings and browser keys, the server's
 * key status, the system prompt in effect, step mode. Page-level, beside the chat session, so a
 * share can name the model and the session can build its requests.
 */
export function useChatModel(prompts: Record<PromptMode, string>, hasDestructiveTools: boolean, classicTools: readonly ClassicToolSpec[]): UseChatModelResult {
  const settings = useChatSettings();
  const providers = useChatProviders();
  const serverKeys = usableServerKeys(providers.serverKeys, providers.access, settings.keys);
  const mode: PromptMode = settings.settings.searchMode ? "search" : "declarations";
  const systemPrompt = useChatSystemPrompt(prompts, mode);
  const provider = effectiveProvider(settings.settings, serverKeys, settings.keys);
  const extrasFor = (lane: LaneChoice | undefined) => {
    const current = settings.settings;
    const chosen = lane
      ? { ...current, provider: lane.provider, models: { ...current.models, [lane.provider]: lane.modelId }, toolMode: lane.toolMode }
      : current;
    return buildRequestExtras({
      settings: chosen,
      keys: settings.keys,
      serverKeys,
      instructions: chosen.toolMode === "classic" ? CLASSIC_SYSTEM_PROMPT : systemPrompt.prompt,
      classicTools,
    });
  };
  return {
    ...settings,
    access: providers.access,
    serverKeys,
    provider,
    modelId: modelIdFor(settings.settings, provider),
    mode,
    stepMode: effectiveStepMode(settings.settings, hasDestructiveTools),
    systemPrompt,
    requestExtras: () => extrasFor(undefined),
    requestExtrasFor: (lane) => extrasFor(lane),
  };
}
