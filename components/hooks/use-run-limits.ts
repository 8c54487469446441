"use client";

import { browserStorage } from "@/lib/storage/browser/browser-storage";
import { useCallback, useMemo, useState } from "react";
import { createLimitsStore, sanitiseOverrides, type LimitOverrides } from "@/lib/editor/limits-store";

export interface UseRunLimitsResult {
  overrides: LimitOverrides;
  /** Replaces the overrides (already validated by the caller) and saves them in this browser. */
  set: (next: LimitOverrides) => void;
  /** Applies limits from elsewhere (a shared link): unknown or invalid values are dropped. */
  adopt: (value: unknown) => void;
  reset: () => void;
}

/** The person's run limits (over the sandbox defaults), kept in this browser's localStorage. */
export function useRunLimits(): UseRunLimitsResult {
  const store = useMemo(() => createLimitsStore(browserStorage()), []);
  // The limits only affect runs, never server markup, so reading storage in the initial state is safe.
  const [overrides, setOverrides] = useState<LimitOverrides>(() => store.load());
  const set = useCallback(
    (next: LimitOverrides) => {
      setOverrides(next);
      store.save(next);
    },
    [store],
  );
  const adopt = useCallback((value: unknown) => set(sanitiseOverrides(value)), [set]);
  const reset = useCallback(() => set({}), [set]);
  return { overrides, set, adopt, reset };
}
