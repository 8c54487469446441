/**
 * The short-link store's interface: a content-addressed map from share id to encoded share
 * text. The default lives on disk (file-store.ts); anything else (SQLite, a KV service) only has
 * to implement these two calls. Ids are checked with isShareId before they reach a store.
 */
import "server-only";

/** Outcome of a put: newly stored, already there (same id means same content), or no room left. */
export type SharePutOutcome = "created" | "exists" | "full";

/** Where short-link snapshots live. */
export interface ShareStore {
  /** Stores `text` under `id`. */
  put(id: string, text: string): Promise<SharePutOutcome>;
  /** The text stored under `id`, or undefined when there is none. */
  get(id: string): Promise<string | undefined>;
}

/** A store in memory: for tests and for deployments that want short links without a disk. */
export function createMemoryShareStore(options: { maxTotalBytes?: number } = {}): ShareStore {
  const items = new Map<string, string>();
  let total = 0;
  return {
    put(id, text) {
      if (items.get(id) === text) return Promise.resolve("exists");
      if (options.maxTotalBytes !== undefined && total + text.length > options.maxTotalBytes) return Promise.resolve("full");
      total += text.length - (items.get(id)?.length ?? 0);
      items.set(id, text);
      return Promise.resolve("created");
    },
    get(id) {
      return Promise.resolve(items.get(id));
    },
  };
}
