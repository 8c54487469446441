"use client";

import { useMemo } from "react";
import type { Sampler } from "@/components/servers/ServerRequestDialog";
import { usePage } from "@/components/playground/page-context";
import { sampleText, samplingInstructions } from "@/lib/model/sampling";
import { requestExtras } from "@/lib/playground/model-settings";
import { useChatModel } from "./use-chat-model";

/** Answers MCP sampling requests with the chat's selected model (the demo model too), over POST /api/chat with no tools. */
export function useSampler(): Sampler {
  const { playground } = usePage();
  const { provider, modelId } = useChatModel();
  return useMemo<Sampler>(
    () => ({
      label: provider === "demo" ? "the demo model" : `${provider} ${modelId}`,
      complete: async (serverName, messages, systemPrompt, params, signal) => {
        const step = playground.modelStep(() => {
          const extras = requestExtras(playground.model.snapshot(), playground.servers.view.snapshot().catalog);
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
        });
        const text = await sampleText(step, messages, signal);
        return { text, model: provider === "demo" ? "demo" : modelId };
      },
    }),
    [provider, modelId, playground],
  );
}
