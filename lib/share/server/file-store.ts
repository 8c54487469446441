/**
 * The default short-link store: one file per snapshot under a data directory
 * (`<dir>/<first two id chars>/<id>.share`), written to a temporary file and renamed so a
 * crash never leaves half a snapshot. Snapshots expire `ttlMs` after they were stored, and a
 * new one that would pass the total size cap evicts the oldest first, so the store never fills
 * up for good. The index (size and time of each file) is read from the directory once per
 * process; several instances sharing one directory each keep their own, so use the Redis store
 * (redis-store.ts) there. Touches the file system: server only.
 */
import "server-only";
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isShareId } from "../share-id";
import type { SharePutOutcome, ShareStore } from "./store";

/** Where and how much. */
export interface FileShareStoreOptions {
  dir: string;
  /** Total bytes of all snapshots; a put beyond it evicts the oldest ("full" only when one snapshot is larger). */
  maxTotalBytes: number;
  /** How long a snapshot lives. */
  ttlMs: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

interface Entry {
  size: number;
  at: number;
}

const SUFFIX = ".share";

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

/** The file for an id; refuses anything that is not a well-formed id or would leave the directory. */
function fileFor(root: string, id: string): string {
  if (!isShareId(id)) throw new Error("refused: not a share id");
  const file = path.resolve(root, id.slice(0, 2), `${id}${SUFFIX}`);
  // Defence in depth: the id pattern already excludes separators and dots.
  if (!file.startsWith(root + path.sep)) throw new Error("refused: outside the share directory");
  return file;
}

async function readIndex(root: string): Promise<Map<string, Entry>> {
  const index = new Map<string, Entry>();
  let shards: string[];
  try {
    shards = await readdir(root);
  } catch (error) {
    if (isMissing(error)) return index;
    throw error;
  }
  for (const shard of shards) {
    let names: string[];
    try {
      names = await readdir(path.join(root, shard));
    } catch {
      continue; // a stray file at the top level
    }
    for (const name of names) {
      const id = name.slice(0, -SUFFIX.length);
      if (!name.endsWith(SUFFIX) || !isShareId(id)) continue;
      const info = await stat(path.join(root, shard, name)).catch(() => undefined);
      if (info) index.set(id, { size: info.size, at: info.mtimeMs });
    }
  }
  return index;
}

/** A ShareStore over a directory (created on first write). */
export function createFileShareStore(options: FileShareStoreOptions): ShareStore {
  const root = path.resolve(options.dir);
  const now = options.now ?? Date.now;
  let loaded: Promise<Map<string, Entry>> | undefined;
  const index = () => (loaded ??= readIndex(root));
  let tmpCounter = 0;

  const remove = async (entries: Map<string, Entry>, id: string) => {
    entries.delete(id);
    await unlink(fileFor(root, id)).catch(() => undefined);
  };
  const total = (entries: Map<string, Entry>) => [...entries.values()].reduce((sum, entry) => sum + entry.size, 0);

  return {
    async put(id: string, text: string): Promise<SharePutOutcome> {
      const file = fileFor(root, id);
      const entries = await index();
      const time = now();
      for (const [key, entry] of entries) if (time - entry.at >= options.ttlMs) await remove(entries, key);
      const existing = entries.has(id)
        ? await readFile(file, "utf8").catch((error: unknown) => {
            if (isMissing(error)) return undefined;
            throw error;
          })
        : undefined;
      if (existing === text) return "exists";
      const bytes = Buffer.byteLength(text, "utf8");
      if (bytes > options.maxTotalBytes) return "full";
      // A different file under a content address is damage (disk, hand edits): replace it.
      if (entries.has(id)) await remove(entries, id);
      const oldestFirst = [...entries.entries()].sort((a, b) => a[1].at - b[1].at);
      let used = total(entries);
      for (const [key, entry] of oldestFirst) {
        if (used + bytes <= options.maxTotalBytes) break;
        await remove(entries, key);
        used -= entry.size;
      }
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
      await writeFile(tmp, text, { encoding: "utf8", mode: 0o600 });
      await rename(tmp, file);
      entries.set(id, { size: bytes, at: time });
      return "created";
    },

    async get(id: string): Promise<string | undefined> {
      const file = fileFor(root, id);
      const entries = await index();
      const entry = entries.get(id);
      if (entry && now() - entry.at >= options.ttlMs) {
        await remove(entries, id);
        return undefined;
      }
      try {
        return await readFile(file, "utf8");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
  };
}
