"use client";

import { browserStorage } from "@/lib/storage/browser/browser-storage";
import { useCallback, useMemo, useRef, useState } from "react";
import { createCodeStore } from "@/lib/editor/code-store";
import { SAMPLE_CODE } from "@/lib/editor/sample-code";

export interface UseEditorCodeResult {
  code: string;
  setCode: (code: string) => void;
  reset: () => void;
}

/**
 * The editor's code, restored from and saved to this browser's localStorage. Reading storage in
 * the initial state is safe for hydration: the editor renders on the client only, so the code
 * never appears in server markup.
 */
export function useEditorCode(): UseEditorCodeResult {
  const store = useMemo(() => createCodeStore(browserStorage()), []);
  const [code, setCodeState] = useState(() => store.load() ?? SAMPLE_CODE);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setCode = useCallback(
    (next: string) => {
      setCodeState(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => store.save(next), 300);
    },
    [store],
  );

  const reset = useCallback(() => setCode(SAMPLE_CODE), [setCode]);
  return { code, setCode, reset };
}
