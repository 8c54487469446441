"use client";

import { useMemo } from "react";
import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import { DEFAULT_SETTINGS, type BrowserKeys, type ChatSettings, type KeyName, type ServerKeyAccess } from "@/lib/model/chat-settings";
import { modelChoice, type ModelChoice, type ModelState, type PromptVersion } from "@/lib/playground/model-settings";
import { useCatalog } from "./use-mcp";

export type { LaneChoice, PromptVersion } from "@/lib/playground/model-settings";

/** The editable system prompt of the mode in use: the person's edit, else the generated one (which follows the connected servers). */
export interface SystemPromptView {
  prompt: string;
  defaultPrompt: string;
  edited: boolean;
  /** Saved edits for the mode, newest last. */
  versions: readonly PromptVersion[];
  save: (text: string) => void;
  reset: () => void;
  restore: (id: number) => void;
}

/** The model settings (lib/playground/model-settings.ts) as the chat panel reads them: the state, its actions, and what follows from it. */
export interface UseChatModelResult extends Pick<ModelChoice, "serverKeys" | "provider" | "modelId" | "mode" | "modeWhy" | "stepMode"> {
  settings: ChatSettings;
  /** API keys typed in this browser. */
  keys: BrowserKeys;
  /** False until this browser's storage has been read. */
  loaded: boolean;
  update: (patch: Partial<ChatSettings>) => void;
  setKey: (name: KeyName, key: string) => void;
  forgetKeys: () => void;
  access: ServerKeyAccess | undefined;
  systemPrompt: SystemPromptView;
}

const INITIAL: ModelState = {
  settings: DEFAULT_SETTINGS,
  keys: {},
  loaded: false,
  reportedServerKeys: undefined,
  access: undefined,
  promptOverrides: {},
  promptVersions: [],
};

/** Which model the chat talks to and how; the component that calls it re-renders when the settings or the catalog change. */
export function useChatModel(): UseChatModelResult {
  const { model } = usePage().playground;
  const state = useStore(model, undefined, { fallback: INITIAL });
  const catalog = useCatalog();
  return useMemo(() => {
    const choice = modelChoice(state, catalog);
    const { mode } = choice;
    return {
      settings: state.settings,
      keys: state.keys,
      loaded: state.loaded,
      update: model.update,
      setKey: model.setKey,
      forgetKeys: model.forgetKeys,
      access: state.access,
      serverKeys: choice.serverKeys,
      provider: choice.provider,
      modelId: choice.modelId,
      mode,
      modeWhy: choice.modeWhy,
      stepMode: choice.stepMode,
      systemPrompt: {
        prompt: choice.prompt,
        defaultPrompt: choice.defaultPrompt,
        edited: choice.edited,
        versions: state.promptVersions.filter((v) => v.mode === mode),
        save: (text) => model.savePrompt(mode, text),
        reset: () => model.resetPrompt(mode),
        restore: (id) => model.restorePrompt(id),
      },
    };
  }, [state, catalog, model]);
}
