/**
 * Reads a text file only when it is within a byte cap (Node only): its size on disk is checked
 * before any byte is read, and the read itself stops at the first chunk past the cap, so a file
 * that grows meanwhile, or one whose size the disk does not tell (a FIFO, /dev/zero), is refused
 * the same way. Every file the CLI takes from a person (mcp.json, skills, suites, programs) goes
 * through here.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";

const CHUNK = 64 * 1024;

/** Bytes as a person reads them: "1 MiB", "800 KiB", "512 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

function tooLarge(path: string, what: string, maxBytes: number, size?: number): Error {
  const is = size === undefined ? "larger than that" : formatBytes(size);
  return new Error(`${path} is ${is}: ${what} may be at most ${formatBytes(maxBytes)}.`);
}

function checkInfo(path: string, info: { isDirectory(): boolean; size: number }, maxBytes: number, what: string): void {
  if (info.isDirectory()) throw new Error(`${path} is a folder, not a file.`);
  if (info.size > maxBytes) throw tooLarge(path, what, maxBytes, info.size);
}

/** Reads `path` as UTF-8 when it holds at most `maxBytes`; otherwise throws an Error naming the file, what it is and the cap. */
export async function readTextCapped(path: string, maxBytes: number, what: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    checkInfo(path, await handle.stat(), maxBytes, what);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total).toString("utf8");
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(path, what, maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

/** readTextCapped for the command-line scripts' synchronous start. */
export function readTextCappedSync(path: string, maxBytes: number, what: string): string {
  const fd = openSync(path, "r");
  try {
    checkInfo(path, fstatSync(fd), maxBytes, what);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(CHUNK);
      const bytesRead = readSync(fd, chunk, 0, CHUNK, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total).toString("utf8");
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(path, what, maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } finally {
    closeSync(fd);
  }
}
