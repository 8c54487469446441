"use client";

import { useCallback, useSyncExternalStore } from "react";
import { browserStorageOrNone } from "@/lib/storage/browser/browser-storage";

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * One of a few choices (which tab is open), kept in this browser's localStorage so a reload
 * opens the same view. The server renders the default; the stored choice applies on hydration
 * (useSyncExternalStore), so there is no mismatch. A stored value that is not allowed is ignored.
 */
export function useStoredChoice<T extends string>(key: string, allowed: readonly T[], initial: T): [T, (next: T) => void] {
  const read = useCallback(() => {
    const stored = browserStorageOrNone().getItem(key);
    return (allowed as readonly string[]).includes(stored ?? "") ? (stored as T) : initial;
  }, [key, allowed, initial]);
  const value = useSyncExternalStore(subscribe, read, () => initial);
  const set = useCallback(
    (next: T) => {
      try {
        browserStorageOrNone().setItem(key, next);
      } catch {
        // A full or blocked storage keeps nothing; the view still changes for this page.
      }
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [value, set];
}
