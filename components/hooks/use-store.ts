"use client";

import { useCallback } from "react";
import { useSyncExternalStoreWithSelector } from "use-sync-external-store/with-selector";
import type { ReadableStore } from "@/lib/state/store";

const identity = <T>(value: T): T => value;
const never = () => () => undefined;

/**
 * A component's slice of a store (lib/state/store.ts): it re-renders only when
 * `select(snapshot)` changes by `equal` (Object.is by default), so a store that changes often
 * (a streaming chat) re-renders only the components that read what changed. `select` may build
 * a new object when `equal` compares contents. Without a store (not created yet), `fallback`.
 * On React's own selector hook (use-sync-external-store), which keeps the last selection.
 */
export function useStore<S, T = S>(
  store: ReadableStore<S> | undefined,
  select: (snapshot: S) => T = identity as (snapshot: S) => T,
  options: { fallback?: T; equal?: (a: T, b: T) => boolean } = {},
): T {
  const { fallback, equal } = options;
  const subscribe = useCallback((listener: () => void) => (store ? store.subscribe(listener) : never()), [store]);
  const read = useCallback(() => store?.snapshot(), [store]);
  const selectOrFallback = useCallback((snapshot: S | undefined) => (snapshot === undefined ? (fallback as T) : select(snapshot)), [select, fallback]);
  return useSyncExternalStoreWithSelector(subscribe, read, () => undefined, selectOrFallback, equal);
}
