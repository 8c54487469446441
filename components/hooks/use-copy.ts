"use client";

import { useCallback, useEffect, useRef, useState } from "react";

export interface UseCopyResult<K extends string> {
  /** What was copied last, for a moment of "Copied" feedback. */
  copied: K | undefined;
  copy: (what: K, text: string) => void;
}

/** Copies text to the clipboard and remembers what for 1.5 s; a refused clipboard shows nothing. */
export function useCopy<K extends string>(): UseCopyResult<K> {
  const [copied, setCopied] = useState<K | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback((what: K, text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        setCopied(what);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(undefined), 1500);
      },
      () => setCopied(undefined),
    );
  }, []);

  return { copied, copy };
}
