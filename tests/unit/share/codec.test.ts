import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildShareState } from "@/lib/share/build";
import { decodeShareState } from "@/lib/share/decode";
import { encodeShareState, shareTransportFor } from "@/lib/share/encode";
import { SHARE_CAPS } from "@/lib/share/caps";
import type { ShareState } from "@/lib/share/schema";
import { plantedInputs } from "./helpers";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const fixtureState = JSON.parse(readFileSync(path.join(FIXTURES, "v1-state.json"), "utf8")) as ShareState;

describe("encode → decode", () => {
  it("round-trips a full state: servers, tools, prompt, model, messages, code, limits, runs", async () => {
    const { state } = buildShareState(plantedInputs());
    const encoded = await encodeShareState(state);
    expect(encoded).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const decoded = await decodeShareState(encoded);
    expect(decoded).toEqual({ ok: true, state, warnings: [] });
  });

  it("round-trips the reference state exactly", async () => {
    const decoded = await decodeShareState(await encodeShareState(fixtureState));
    expect(decoded.ok && decoded.state).toEqual(fixtureState);
  });

  it("gives the same text for the same state whatever the key order", async () => {
    const reordered = JSON.parse(JSON.stringify(fixtureState, Object.keys(fixtureState).reverse())) as ShareState;
    const shuffled = { ...reordered, ...fixtureState, tools: fixtureState.tools.map((t) => ({ tools: t.tools, server: t.server })) };
    expect(await encodeShareState(shuffled)).toBe(await encodeShareState(fixtureState));
  });

  it("an empty playground is a valid, tiny share", async () => {
    const { state } = buildShareState({});
    expect(state).toEqual({ version: 1, servers: [], tools: [], messages: [], runs: [] });
    const encoded = await encodeShareState(state);
    expect(encoded.length).toBeLessThan(80);
    expect((await decodeShareState(encoded)).ok).toBe(true);
  });

  it("ignores whitespace around pasted link text", async () => {
    const encoded = await encodeShareState(fixtureState);
    expect((await decodeShareState(`  ${encoded}\n`)).ok).toBe(true);
  });
});

describe("links made by earlier versions", () => {
  // Every fixture is a link an earlier release made; each must keep opening as long as the app exists.
  const links = readdirSync(FIXTURES).filter((name) => /^v\d+-link\.txt$/.test(name));

  it("has at least the v1 fixture", () => expect(links).toContain("v1-link.txt"));

  it.each(links)("%s still opens", async (name) => {
    const decoded = await decodeShareState(readFileSync(path.join(FIXTURES, name), "utf8"));
    expect(decoded.ok).toBe(true);
    if (name === "v1-link.txt") expect(decoded.ok && decoded.state).toEqual(fixtureState);
  });
});

describe("shareTransportFor", () => {
  it("puts up to ~32 KB in the link, then asks for a short link, then for a file", () => {
    expect(shareTransportFor("v1.".padEnd(SHARE_CAPS.linkChars, "a"))).toBe("link");
    expect(shareTransportFor("v1.".padEnd(SHARE_CAPS.linkChars + 1, "a"))).toBe("short-link");
    expect(shareTransportFor("v1.".padEnd(SHARE_CAPS.snapshotChars + 1, "a"))).toBe("too-large");
  });

  it("sends a big state to the short-link store", async () => {
    // Pseudo-random data does not compress away (a fixed LCG keeps the test deterministic).
    let seed = 42;
    let code = "";
    while (code.length < 60_000) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      code += seed.toString(36);
    }
    const { state } = buildShareState({ code });
    expect(shareTransportFor(await encodeShareState(state))).toBe("short-link");
  });
});
