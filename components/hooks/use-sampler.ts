"use client";

import { useMemo } from "react";
import type { Sampler } from "@/components/servers/ServerRequestDialog";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { sampleText, samplingInstructions } from "@/lib/model/sampling";
import type { UseChatModelResult } from "./use-chat-model";

/** Answers MCP sampling requests with the chat's selected model (the demo model too), over POST /api/chat with no tools. */
export function useSampler(chatModel: Pick<UseChatModelResult, "provider" | "modelId" | "requestExtras">): Sampler {
  const { provider, modelId, requestExtras } = chatModel;
  return useMemo<Sampler>(
    () => ({
      label: provider === "demo" ? "the demo model" : `${provider} ${modelId}`,
      complete: async (serverName, messages, systemPrompt, params, signal) => {
        const step = httpModelStep({
          body: () => {
            const extras = requestExtras();
            return {
              ...extras,
              // Classic mode with no tools: a plain completion.
              toolMode: "classic",
              classicTools: [],
              instructions: samplingInstructions(serverName, systemPrompt),
              settings: {
                ...extras.settings,
                maxOutputTokens: params.maxTokens,
                ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
              },
            };
          },
        });
        const text = await sampleText(step, messages, signal);
        return { text, model: provider === "demo" ? "demo" : modelId };
      },
    }),
    [provider, modelId, requestExtras],
  );
}
