import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeShareState } from "@/lib/share/encode";
import { createFileShareStore } from "@/lib/share/server/file-store";
import type { ShareState } from "@/lib/share/schema";
import { isShareId } from "@/lib/share/share-id";
import { loadShortLink, saveShortLink } from "@/lib/share/server/short-link";
import { createMemoryShareStore } from "@/lib/share/server/store";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "v1-state.json"), "utf8")) as ShareState;
const MB = 1024 * 1024;
const TTL = 30 * 24 * 3600_000;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cmp-share-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files(): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".share"));
}

describe("content addressing", () => {
  it("gives the same state the same id, stored once", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const first = await saveShortLink(store, await encodeShareState(base));
    const again = await saveShortLink(store, await encodeShareState({ ...base }));
    expect(first).toMatchObject({ ok: true, created: true });
    expect(again).toEqual(first.ok ? { ok: true, id: first.id, created: false } : undefined);
    expect(first.ok && isShareId(first.id)).toBe(true);
    expect(files()).toHaveLength(1);
  });

  it("gives a different state a different id", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const a = await saveShortLink(store, await encodeShareState(base));
    const b = await saveShortLink(store, await encodeShareState({ ...base, code: "return 2;" }));
    expect(a.ok && b.ok && a.id !== b.id).toBe(true);
  });

  it("stores the validated, re-encoded state and loads it back", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const saved = await saveShortLink(store, `  ${await encodeShareState(base)}  `);
    if (!saved.ok) throw saved.error;
    const loaded = await loadShortLink(store, saved.id);
    expect(loaded).toEqual({ ok: true, share: await encodeShareState(base) });
  });

  it("refuses invalid shares without storing anything", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const saved = await saveShortLink(store, "v1.garbage");
    expect(saved.ok).toBe(false);
    expect(!saved.ok && saved.error.code).toBe("bad_request:share");
    expect(files()).toEqual([]);
  });
});

describe("size caps", () => {
  it("evicts the oldest snapshots when a new one would pass the total cap (finding 6: the store never fills for good)", async () => {
    let now = 0;
    const first = await encodeShareState(base);
    const store = createFileShareStore({ dir, maxTotalBytes: first.length + 10, ttlMs: TTL, now: () => now });
    const a = await saveShortLink(store, first);
    now += 1_000;
    const b = await saveShortLink(store, await encodeShareState({ ...base, code: "return 2;" }));
    if (!a.ok || !b.ok) throw new Error("both fit, one at a time");
    expect(await loadShortLink(store, a.id)).toMatchObject({ ok: false, error: { code: "not_found:share" } });
    expect((await loadShortLink(store, b.id)).ok).toBe(true);
    expect(files()).toHaveLength(1);
    // Only a snapshot larger than the whole store is refused.
    const tiny = createFileShareStore({ dir, maxTotalBytes: 10, ttlMs: TTL });
    expect(await saveShortLink(tiny, first)).toMatchObject({ ok: false, error: { code: "full:share" } });
  });

  it("counts what is already on disk when a process starts, and evicts it first", async () => {
    const encoded = await encodeShareState(base);
    const old = await saveShortLink(createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL }), encoded);
    const restarted = createFileShareStore({ dir, maxTotalBytes: encoded.length + 10, ttlMs: TTL });
    const other = await saveShortLink(restarted, await encodeShareState({ ...base, code: "return 3;" }));
    expect(other.ok).toBe(true);
    if (!old.ok) throw old.error;
    expect((await loadShortLink(restarted, old.id)).ok).toBe(false);
  });

  it("expires snapshots after the TTL, on read and on the next write (finding 6)", async () => {
    let now = 0;
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: 1_000, now: () => now });
    const saved = await saveShortLink(store, await encodeShareState(base));
    if (!saved.ok) throw saved.error;
    now = 999;
    expect((await loadShortLink(store, saved.id)).ok).toBe(true);
    now = 1_000;
    expect(await loadShortLink(store, saved.id)).toMatchObject({ ok: false, error: { code: "not_found:share" } });
    expect(files()).toEqual([]);
    const again = await saveShortLink(store, await encodeShareState({ ...base, code: "return 4;" }));
    now = 5_000;
    await saveShortLink(store, await encodeShareState({ ...base, code: "return 5;" }));
    expect(again.ok && files().some((f) => f.includes(again.id))).toBe(false);
  });

  it("refuses a snapshot larger than the per-snapshot cap", async () => {
    const saved = await saveShortLink(createMemoryShareStore(), `v1.${"A".repeat(2 * MB)}`);
    expect(!saved.ok && saved.error.code).toBe("too_large:share");
  });
});

describe("damaged and hostile storage", () => {
  it("reports a corrupt file on disk instead of serving it", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const saved = await saveShortLink(store, await encodeShareState(base));
    if (!saved.ok) throw saved.error;
    const file = path.join(dir, files()[0] ?? "");
    for (const damage of ["", "v1.not-deflate", readFileSync(file, "utf8").slice(0, 40), "\u0000\u0001binary"]) {
      writeFileSync(file, damage);
      const loaded = await loadShortLink(store, saved.id);
      expect(!loaded.ok && loaded.error.code).toBe("corrupt:share");
    }
  });

  it("reports a valid share filed under the wrong id as damaged", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const a = await saveShortLink(store, await encodeShareState(base));
    const b = await saveShortLink(store, await encodeShareState({ ...base, code: "return 2;" }));
    if (!a.ok || !b.ok) throw new Error("setup");
    const fileA = path.join(dir, a.id.slice(0, 2), `${a.id}.share`);
    writeFileSync(fileA, (await store.get(b.id)) ?? "");
    expect(await loadShortLink(store, a.id)).toMatchObject({ ok: false, error: { code: "corrupt:share" } });
  });

  it("repairs a damaged file when the same share is saved again", async () => {
    const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
    const saved = await saveShortLink(store, await encodeShareState(base));
    if (!saved.ok) throw saved.error;
    writeFileSync(path.join(dir, files()[0] ?? ""), "junk");
    expect(await saveShortLink(store, await encodeShareState(base))).toMatchObject({ ok: true, created: true });
    expect((await loadShortLink(store, saved.id)).ok).toBe(true);
  });

  it.each(["../../../etc/passwd", "..%2F..%2Fetc", "a/b", "AbCdEfGhIjKlMnOpQrStU.", "", "x".repeat(23), "AbCdEfGhIjKlMnOpQrSt\u0000v"])(
    "refuses the id %j before touching the disk",
    async (id) => {
      const store = createFileShareStore({ dir, maxTotalBytes: MB, ttlMs: TTL });
      await expect(store.get(id)).rejects.toThrow(/refused/);
      await expect(store.put(id, "v1.x")).rejects.toThrow(/refused/);
      expect(await loadShortLink(store, id)).toMatchObject({ ok: false, error: { code: "bad_request:share" } });
    },
  );

  it("answers a missing id with not found", async () => {
    const store = createFileShareStore({ dir: path.join(dir, "never-created"), maxTotalBytes: MB, ttlMs: TTL });
    expect(await loadShortLink(store, "AbCdEfGhIjKlMnOpQrStUv")).toMatchObject({ ok: false, error: { code: "not_found:share" } });
  });

  it("turns a store that throws into 'unavailable', without leaking the cause", async () => {
    const broken = { put: () => Promise.reject(new Error(`EACCES ${dir}`)), get: () => Promise.reject(new Error(`EIO ${dir}`)) };
    const original = console.error;
    console.error = () => undefined;
    try {
      const saved = await saveShortLink(broken, await encodeShareState(base));
      expect(!saved.ok && [saved.error.code, saved.error.message.includes(dir)]).toEqual(["unavailable:share", false]);
      expect(await loadShortLink(broken, "AbCdEfGhIjKlMnOpQrStUv")).toMatchObject({ ok: false, error: { code: "unavailable:share" } });
    } finally {
      console.error = original;
    }
  });
});
