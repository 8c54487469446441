"use client";

import { useCallback, useState } from "react";
import type { PromptMode } from "@/lib/codemode";

/** A saved edit of the system prompt (kept for this session only). */
export interface PromptVersion {
  id: number;
  mode: PromptMode;
  text: string;
  savedAt: number;
}

export interface UseChatSystemPromptResult {
  /** The prompt in effect for the mode: the person's edit, else the generated default. */
  prompt: string;
  /** The generated prompt for the mode (it follows the connected servers). */
  defaultPrompt: string;
  edited: boolean;
  /** Saved edits for the mode, newest last. */
  versions: readonly PromptVersion[];
  /** Uses `text` from now on and keeps it as a version. */
  save: (text: string) => void;
  /** Back to the generated prompt (the versions stay). */
  reset: () => void;
  /** Uses a saved version again. */
  restore: (id: number) => void;
}

/**
 * The editable system prompt. Until the person edits it, the generated default is used, so
 * connecting a server updates what the model sees; an edit pins the text for that mode.
 */
export function useChatSystemPrompt(defaults: Record<PromptMode, string>, mode: PromptMode): UseChatSystemPromptResult {
  const [overrides, setOverrides] = useState<Partial<Record<PromptMode, string>>>({});
  const [versions, setVersions] = useState<PromptVersion[]>([]);

  const save = useCallback(
    (text: string) => {
      setOverrides((o) => ({ ...o, [mode]: text }));
      setVersions((v) => [...v, { id: (v.at(-1)?.id ?? 0) + 1, mode, text, savedAt: Date.now() }]);
    },
    [mode],
  );
  const reset = useCallback(() => setOverrides((o) => ({ ...o, [mode]: undefined })), [mode]);
  const restore = useCallback(
    (id: number) => {
      const version = versions.find((v) => v.id === id);
      if (version) setOverrides((o) => ({ ...o, [version.mode]: version.text }));
    },
    [versions],
  );

  const override = overrides[mode];
  return {
    prompt: override ?? defaults[mode],
    defaultPrompt: defaults[mode],
    edited: override !== undefined,
    versions: versions.filter((v) => v.mode === mode),
    save,
    reset,
    restore,
  };
}
