import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bytesToBase64Url } from "@/lib/share/base64url";
import { deflateRaw } from "@/lib/share/compress";
import { decodeShareState } from "@/lib/share/decode";
import { migrateShare, SHARE_MIGRATIONS } from "@/lib/share/migrate";
import type { ShareMigration } from "@/lib/share/migrate";
import { SHARE_VERSION } from "@/lib/share/schema";
import type { ShareState } from "@/lib/share/schema";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "v1-state.json"), "utf8")) as ShareState;

async function rawLink(value: unknown, version: number): Promise<string> {
  return `v${version}.${bytesToBase64Url(await deflateRaw(new TextEncoder().encode(JSON.stringify(value))))}`;
}

// A made-up history: v-1 kept code under "source", v0 named the prompt "prompt".
const HISTORY: Record<number, ShareMigration> = {
  [-1]: ({ source, ...rest }) => ({ payload: { ...rest, code: source } }),
  0: ({ prompt, ...rest }) => ({ payload: { ...rest, systemPrompt: prompt }, note: "The system prompt moved." }),
};

describe("migrateShare", () => {
  it("has a migration for every version below the current one", () => {
    for (let v = 1; v < SHARE_VERSION; v++) expect(Object.hasOwn(SHARE_MIGRATIONS, v), `v${v}`).toBe(true);
  });

  it("runs the chain in order and stamps the target version", () => {
    const result = migrateShare({ version: -1, source: "return 1", prompt: "p" }, -1, { migrations: HISTORY, target: 1 });
    expect(result).toEqual({
      ok: true,
      payload: { version: 1, code: "return 1", systemPrompt: "p" },
      notes: ["The system prompt moved.", "Made with an older version of the app (format v-1); upgraded to v1."],
    });
  });

  it("turns a migration that throws into an error value", () => {
    const result = migrateShare({}, 0, {
      migrations: {
        0: () => {
          throw new Error("bad shape");
        },
      },
      target: 1,
    });
    expect(result).toEqual({ ok: false, error: { code: "invalid", message: "This share (format v0) could not be upgraded: bad shape" } });
  });

  it("refuses a version newer than the target", () => {
    expect(migrateShare({}, 5, { target: 1 })).toMatchObject({ ok: false, error: { code: "version" } });
  });

  it("ignores inherited keys when looking migrations up", () => {
    expect(migrateShare({}, 0, { migrations: Object.create({ 0: HISTORY[0] }) as Record<number, ShareMigration>, target: 1 })).toMatchObject({
      ok: false,
      error: { code: "version" },
    });
  });
});

describe("an older link opens through the chain", () => {
  it("decodes a v0 link with an injected v0 → v1 migration, with a note", async () => {
    const { systemPrompt, ...rest } = base;
    const old = { ...rest, version: 0, prompt: systemPrompt };
    const result = await decodeShareState(await rawLink(old, 0), { migrations: HISTORY });
    expect(result).toEqual({
      ok: true,
      state: base,
      warnings: ["The system prompt moved.", "Made with an older version of the app (format v0); upgraded to v1."],
    });
  });
});
