/**
 * One styling approach (docs/ARCHITECTURE.md, "Styling"): colours and sizes are design tokens
 * (CSS variables in app/globals.css's :root); globals.css holds the tokens, the element resets
 * and the shared primitives (panel, toolbar, tabs, field, error-box...); everything used by one
 * component lives in that component's CSS module. These checks keep it that way.
 */
import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const cssFiles = ["app/globals.css", ...globSync("components/**/*.module.css", { cwd: root })];
const COLOUR = /#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(/;

/** The CSS without comments and, for globals.css, without the :root token block. */
function body(file: string): string {
  const text = read(file).replace(/\/\*[\s\S]*?\*\//g, "");
  return file === "app/globals.css" ? text.replace(/:root\s*\{[^}]*\}/, "") : text;
}

/** Class names a stylesheet defines (outside :global()), camel-cased as CSS modules expose them. */
function classesOf(css: string): Set<string> {
  const selectors = [...css.replace(/:global\([^)]*\)/g, "").matchAll(/([^{}]+)\{/g)].map((m) => m[1]!).filter((s) => !s.trim().startsWith("@"));
  const names = selectors.flatMap((s) => [...s.matchAll(/\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())));
  return new Set(names);
}

describe("styling", () => {
  it("colours appear only as tokens: no literal outside :root, in any stylesheet or inline style", () => {
    const offenders = cssFiles.flatMap((file) =>
      body(file)
        .split("\n")
        .filter((line) => COLOUR.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    const inline = globSync("components/**/*.tsx", { cwd: root }).flatMap((file) =>
      read(file)
        .split("\n")
        .filter((line) => /style=\{\{/.test(line) && COLOUR.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect([...offenders, ...inline]).toEqual([]);
  });

  it("no CSS module redefines a shared primitive of globals.css (one concept, one definition)", () => {
    const shared = classesOf(body("app/globals.css"));
    const clashes = cssFiles
      .filter((f) => f !== "app/globals.css")
      .flatMap((file) => [...classesOf(body(file))].filter((name) => shared.has(name)).map((name) => `${file}: .${name}`));
    expect(clashes).toEqual([]);
  });

  it("one badge: only components/ui/Badge defines it", () => {
    const badges = cssFiles.filter((file) => /\.(badge|pill)\b/.test(body(file)));
    expect(badges).toEqual(["components/ui/Badge.module.css"]);
  });
});
