/**
 * The default short-link store: one file per snapshot under a data directory
 * (`<dir>/<first two id chars>/<id>.share`), written to a temporary file and renamed so a
 * crash never leaves half a snapshot. A total size cap is kept by summing the directory once
 * per process and counting from there; several instances sharing one directory each keep their
 * own count, so the cap is approximate there (the per-snapshot cap still holds exactly).
 * Touches the file system: server only.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isShareId } from "./share-id";
import type { SharePutOutcome, ShareStore } from "./store";

/** Where and how much. */
export interface FileShareStoreOptions {
  dir: string;
  /** Total bytes of all snapshots; puts beyond it answer "full". */
  maxTotalBytes: number;
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

async function directorySize(root: string): Promise<number> {
  let total = 0;
  let shards: string[];
  try {
    shards = await readdir(root);
  } catch (error) {
    if (isMissing(error)) return 0;
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
      if (!name.endsWith(SUFFIX)) continue;
      total += (await stat(path.join(root, shard, name)).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}

/** A ShareStore over a directory (created on first write). */
export function createFileShareStore(options: FileShareStoreOptions): ShareStore {
  const root = path.resolve(options.dir);
  let total: Promise<number> | undefined;
  const used = () => (total ??= directorySize(root));
  let tmpCounter = 0;

  return {
    async put(id: string, text: string): Promise<SharePutOutcome> {
      const file = fileFor(root, id);
      const existing = await readFile(file, "utf8").catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (existing === text) return "exists";
      const bytes = Buffer.byteLength(text, "utf8");
      const current = await used();
      const previous = existing === undefined ? 0 : Buffer.byteLength(existing, "utf8");
      if (current - previous + bytes > options.maxTotalBytes) return "full";
      // A different file under a content address is damage (disk, hand edits): replace it.
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
      await writeFile(tmp, text, { encoding: "utf8", mode: 0o600 });
      await rename(tmp, file);
      total = Promise.resolve(current - previous + bytes);
      return "created";
    },

    async get(id: string): Promise<string | undefined> {
      const file = fileFor(root, id);
      try {
        return await readFile(file, "utf8");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
  };
}
