/**
 * A small key-value store in this browser's IndexedDB (idb-keyval), for what is too large for
 * localStorage: the session's conversation, runs and code history. Undefined where IndexedDB is
 * missing or blocked (private modes, policies): the page then simply keeps nothing.
 */
import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { KeyValueStore } from "../key-value";

export type { KeyValueStore };

export function idbStore(database = "code-mode-playground", store = "session"): KeyValueStore | undefined {
  let handle: UseStore;
  try {
    if (typeof indexedDB === "undefined") return undefined;
    handle = createStore(database, store);
  } catch {
    return undefined;
  }
  return {
    get: (key) => get(key, handle),
    set: (key, value) => set(key, value, handle),
    del: (key) => del(key, handle),
  };
}
