/**
 * An asynchronous key-value store of structured values: the page keeps its session and its
 * skills in one (IndexedDB in the browser, `lib/storage/browser/idb-store.ts`; a Map in tests).
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
}
