/**
 * docs/ARCHITECTURE.md stays the map the code points at: every heading a comment cites
 * (`docs/ARCHITECTURE.md, "Heading"`) exists, and every domain under lib/ is in its Layout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const MAP = readFileSync(path.join(ROOT, "docs", "ARCHITECTURE.md"), "utf8");
const SOURCE_DIRS = ["app", "components", "lib", "scripts", "tests", "bin"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.(ts|tsx|mjs)$/.test(entry)) out.push(full);
  }
  return out;
}

/** The headings of the map, without their `#`s. */
const headings = MAP.split("\n")
  .filter((line) => /^#{2,4} /.test(line))
  .map((line) => line.replace(/^#+ /, "").trim());

/** A citation names a heading when it is the heading, or the heading's start before " (" or ":". */
function cites(heading: string, cited: string): boolean {
  return heading === cited || heading.startsWith(`${cited} (`) || heading.startsWith(`${cited}:`);
}

describe("the architecture map", () => {
  it("has every heading a comment cites", () => {
    const missing: string[] = [];
    for (const file of SOURCE_DIRS.flatMap((dir) => sources(path.join(ROOT, dir))).filter((f) => f !== import.meta.filename)) {
      // Comments wrap: join each line to the next without its comment marker first.
      const text = readFileSync(file, "utf8").replace(/\n\s*(?:\*(?!\/)|\/\/)\s*/g, " ");
      for (const match of text.matchAll(/docs\/ARCHITECTURE\.md, "([^"]+)"/g)) {
        const cited = match[1] ?? "";
        if (!headings.some((heading) => cites(heading, cited))) missing.push(`${path.relative(ROOT, file)}: "${cited}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("lists every lib/ domain in its Layout", () => {
    const layout = MAP.slice(MAP.indexOf("## Layout"), MAP.indexOf("## Where each concept lives"));
    const domains = readdirSync(path.join(ROOT, "lib")).filter((entry) => statSync(path.join(ROOT, "lib", entry)).isDirectory());
    const listed = new Set([...layout.matchAll(/^ {2}([a-z-]+)\//gm)].map((m) => m[1]));
    expect(domains.filter((domain) => !listed.has(domain))).toEqual([]);
  });
});
