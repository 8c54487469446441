/**
 * docs/ARCHITECTURE.md stays the map the code points at, and the topic docs stay true to it:
 * every heading a comment cites (`docs/<doc>.md, "Heading"`) exists in that doc, every domain
 * under lib/ is in the map's Layout, every topic doc the map lists exists, every file the map
 * and the topic docs name exists, and the map stays a map (at most 300 lines); and no file of
 * the rooms grows past 400 lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const DOCS = path.join(ROOT, "docs");
const MAP = readFileSync(path.join(DOCS, "ARCHITECTURE.md"), "utf8");
const SOURCE_DIRS = ["app", "components", "lib", "scripts", "tests", "bin"];
/** Docs that explain the code; the others (using, deploying, agents, evals, packaging) are for people running it. */
const TOPIC_DOCS = [...MAP.matchAll(/^\| docs\/([\w-]+\.md) \|/gm)].map((m) => m[1] ?? "");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.(ts|tsx|mjs|css)$/.test(entry)) out.push(full);
  }
  return out;
}

/** A doc's headings, without their `#`s. */
function headingsOf(doc: string): string[] {
  const file = path.join(DOCS, doc);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => /^#{1,4} /.test(line))
    .map((line) => line.replace(/^#+ /, "").trim());
}

/** A citation names a heading when it is the heading, or the heading's start before " (" or ":". */
function cites(heading: string, cited: string): boolean {
  return heading === cited || heading.startsWith(`${cited} (`) || heading.startsWith(`${cited}:`);
}

describe("the architecture map", () => {
  it("has every heading a comment cites, in the doc it names", () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of SOURCE_DIRS.flatMap((dir) => sources(path.join(ROOT, dir))).filter((f) => f !== import.meta.filename)) {
      // Comments wrap: join each line to the next without its comment marker first.
      const text = readFileSync(file, "utf8").replace(/\n\s*(?:\*(?!\/)|\/\/)\s*/g, " ");
      for (const match of text.matchAll(/docs\/([\w-]+\.md), "([^"]+)"/g)) {
        const [, doc = "", cited = ""] = match;
        seen++;
        if (!headingsOf(doc).some((heading) => cites(heading, cited))) missing.push(`${path.relative(ROOT, file)}: docs/${doc}, "${cited}"`);
      }
    }
    expect(seen).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it("lists every lib/ domain in its Layout", () => {
    const layout = MAP.slice(MAP.indexOf("## Layout"), MAP.indexOf("## How to add"));
    const domains = readdirSync(path.join(ROOT, "lib")).filter((entry) => statSync(path.join(ROOT, "lib", entry)).isDirectory());
    const listed = new Set([...layout.matchAll(/^ {2}([a-z-]+)\//gm)].map((m) => m[1]));
    expect(domains.length).toBeGreaterThan(20);
    expect(domains.filter((domain) => !listed.has(domain))).toEqual([]);
  });

  it("lists topic docs that exist", () => {
    expect(TOPIC_DOCS.length).toBeGreaterThan(8);
    expect(TOPIC_DOCS.filter((doc) => !existsSync(path.join(DOCS, doc)))).toEqual([]);
  });

  it("names only files that exist, in the map and the topic docs", () => {
    const missing: string[] = [];
    for (const doc of ["ARCHITECTURE.md", ...TOPIC_DOCS]) {
      const text = readFileSync(path.join(DOCS, doc), "utf8");
      for (const match of text.matchAll(
        /(?<![\w/.-])((?:lib|components|app|scripts|tests|bin|deploy|evals)\/[\w./[\]-]*\.(?:tsx|ts|mjs|json|js|yml|css|conf))(?![\w])/g,
      )) {
        const named = match[1] ?? "";
        if (!existsSync(path.join(ROOT, named))) missing.push(`docs/${doc}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("stays a map: at most 300 lines", () => {
    expect(MAP.split("\n").length).toBeLessThanOrEqual(300);
  });
});

describe("the rooms", () => {
  it("keep their files small enough to read: at most 400 lines under lib/, components/ and app/", () => {
    const long: string[] = [];
    for (const dir of ["lib", "components", "app"]) {
      for (const file of sources(path.join(ROOT, dir)).filter((f) => /\.(ts|tsx)$/.test(f))) {
        const lines = readFileSync(file, "utf8").split("\n").length;
        if (lines > 400) long.push(`${path.relative(ROOT, file)}: ${lines} lines`);
      }
    }
    expect(long).toEqual([]);
  });
});
