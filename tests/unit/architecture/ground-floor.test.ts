/**
 * One place for each small concept (docs/ARCHITECTURE.md, "Where each concept lives"): the
 * ground floor (`lib/text`, `lib/numbers`, `lib/storage`, `lib/random`) holds the helpers every
 * room uses, and no other file declares one of the same name or writes one out inline. Layer-0
 * domains may not import each other (eslint.config.mjs), so they alone keep the one-line forms.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const GROUND = ["text", "numbers", "storage", "random"];
const { LAYERS } = (await import(pathToFileURL(path.join(ROOT, "eslint.config.mjs")).href)) as { LAYERS: Record<string, number> };
const LAYER_ZERO = Object.keys(LAYERS).filter((domain) => LAYERS[domain] === 0);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === "node_modules" || entry.startsWith(".")) return [];
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");
const domainOf = (file: string) => /^lib\/([^/]+)\//.exec(relative(file))?.[1];
const groundFiles = GROUND.flatMap((domain) => sources(path.join(ROOT, "lib", domain)));
const otherFiles = ["lib", "components", "app", "scripts"].flatMap((dir) => sources(path.join(ROOT, dir))).filter((file) => !groundFiles.includes(file));

/** The ground floor's exported names and where each lives. */
const groundNames = new Map<string, string>();
for (const file of groundFiles) {
  for (const match of readFileSync(file, "utf8").matchAll(/^export (?:async )?(?:function|const|interface|type|class) (\w+)/gm)) {
    groundNames.set(match[1] ?? "", relative(file));
  }
}

/** Inline forms of ground-floor concepts, each with its helper. */
const INLINE: ReadonlyArray<{ pattern: RegExp; helper: string }> = [
  { pattern: /instanceof Error \? \w+\.message : String\(/, helper: "messageOf (lib/text/error-message.ts)" },
  { pattern: /typeof (\w+) === "object" && \1 !== null && !Array\.isArray\(\1\)/, helper: "isRecord (lib/text/json-value.ts)" },
  { pattern: /Pick<Storage, /, helper: "TextStorage / RemovableTextStorage (lib/storage/key-value.ts)" },
];

describe("the ground floor", () => {
  it("has the helpers it is meant to have", () => {
    for (const name of ["messageOf", "isRecord", "formatPath", "median", "percentile", "clip", "clipCounted", "KeyValueStore", "TextStorage"]) {
      expect(groundNames.has(name), name).toBe(true);
    }
  });

  it("no other file declares a helper of the same name", () => {
    const copies: string[] = [];
    for (const file of otherFiles) {
      for (const match of readFileSync(file, "utf8").matchAll(/^(?:export )?(?:async )?(?:function|const|let|interface|type|class) (\w+)\b/gm)) {
        const home = groundNames.get(match[1] ?? "");
        if (home) copies.push(`${relative(file)}: ${match[1]} (the ground floor's is in ${home})`);
      }
    }
    expect(copies).toEqual([]);
  });

  it("no file above layer 0 writes a ground-floor helper out inline", () => {
    const copies: string[] = [];
    for (const file of otherFiles) {
      const domain = domainOf(file);
      if (domain && LAYER_ZERO.includes(domain)) continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, index) => {
        for (const { pattern, helper } of INLINE) if (pattern.test(line)) copies.push(`${relative(file)}:${index + 1}: use ${helper}`);
      });
    }
    expect(copies).toEqual([]);
  });
});
