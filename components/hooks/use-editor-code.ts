"use client";

import { browserStorage } from "@/lib/storage/browser/browser-storage";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { createCodeStore } from "@/lib/editor/code-store";
import { SAMPLE_CODE } from "@/lib/editor/sample-code";

export interface UseEditorCodeResult {
  code: string;
  setCode: (code: string) => void;
  reset: () => void;
}

/** The editor's code in this page: the stored code at first, then whatever is set; saved 300 ms after the last change. */
function createLiveCode(store: ReturnType<typeof createCodeStore>) {
  let code = store.load() ?? SAMPLE_CODE;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => code,
    set: (next: string) => {
      code = next;
      listeners.forEach((listener) => listener());
      clearTimeout(timer);
      timer = setTimeout(() => store.save(next), 300);
    },
  };
}

/**
 * The editor's code, restored from and saved to this browser's localStorage. The server renders
 * the sample (its code preview shows while Monaco loads); the stored code takes over right after
 * hydration (useSyncExternalStore's server snapshot), so a reload with code of one's own never
 * renders a mismatch.
 */
export function useEditorCode(): UseEditorCodeResult {
  const live = useMemo(() => createLiveCode(createCodeStore(browserStorage())), []);
  const code = useSyncExternalStore(live.subscribe, live.get, () => SAMPLE_CODE);
  const setCode = useCallback((next: string) => live.set(next), [live]);
  const reset = useCallback(() => live.set(SAMPLE_CODE), [live]);
  return { code, setCode, reset };
}
