/**
 * An asynchronous key-value store of structured values: the page keeps its session and its
 * skills in one (IndexedDB in the browser, `lib/storage/browser/idb-store.ts`; a Map in tests).
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
}

/**
 * Synchronous storage of text by key, as localStorage gives it (a Map in tests): what the page's
 * small stores (code, limits, tasks, the local token) keep their values in.
 */
export type TextStorage = Pick<Storage, "getItem" | "setItem">;

/** TextStorage that can also remove a key (the server list, the model settings, OAuth records). */
export type RemovableTextStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;
