/** scripts/compile-hints.mjs over a stand-in of next build's output: which chunks get V8's compile hint, once. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT, firstLoadChunks, markFirstLoadChunks } from "../../../scripts/compile-hints.mjs";

/** A .next folder with Next's two manifests, shaped as Next 16 writes them, and five chunks. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-hints-"));
  mkdirSync(path.join(dir, "static", "chunks"), { recursive: true });
  mkdirSync(path.join(dir, "server", "app"), { recursive: true });
  writeFileSync(
    path.join(dir, "build-manifest.json"),
    JSON.stringify({ rootMainFiles: ["static/chunks/runtime.js", "static/chunks/react.js"], polyfillFiles: ["static/chunks/polyfill.js"] }),
  );
  const manifest = {
    entryJSFiles: {
      "[project]/app/layout": ["static/chunks/layout.js"],
      "[project]/app/page": ["static/chunks/layout.js", "static/chunks/page.js"],
      "[project]/node_modules/next/dist/client/components/builtin/global-error": ["static/chunks/layout.js"],
    },
  };
  writeFileSync(
    path.join(dir, "server", "app", "page_client-reference-manifest.js"),
    `globalThis.__RSC_MANIFEST = (globalThis.__RSC_MANIFEST || {});\nglobalThis.__RSC_MANIFEST["/page"] = ${JSON.stringify(manifest)};\n`,
  );
  for (const name of ["runtime", "react", "layout", "page", "monaco", "polyfill"])
    writeFileSync(path.join(dir, "static", "chunks", `${name}.js`), `console.log("${name}");\n`);
  return dir;
}

const read = (dir: string, name: string) => readFileSync(path.join(dir, "static", "chunks", `${name}.js`), "utf8");

describe("compile hints on the page's first-load chunks", () => {
  it("marks Next's runtime and the layout's and page's chunks, not the polyfills or chunks loaded later, and only once", () => {
    const dir = fakeBuild();
    expect(firstLoadChunks(dir).sort()).toEqual(["static/chunks/layout.js", "static/chunks/page.js", "static/chunks/react.js", "static/chunks/runtime.js"]);
    expect(markFirstLoadChunks(dir)).toHaveLength(4);
    for (const name of ["runtime", "react", "layout", "page"]) expect(read(dir, name)).toBe(`${COMPILE_HINT}console.log("${name}");\n`);
    for (const name of ["monaco", "polyfill"]) expect(read(dir, name)).toBe(`console.log("${name}");\n`);
    // A second build step over the same output changes nothing.
    expect(markFirstLoadChunks(dir)).toEqual([]);
    expect(read(dir, "page").startsWith(COMPILE_HINT + COMPILE_HINT)).toBe(false);
  });

  it("stops the build when Next's output no longer has the manifests it reads", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cmp-hints-"));
    writeFileSync(path.join(dir, "build-manifest.json"), "{}");
    expect(() => markFirstLoadChunks(dir)).toThrow(/client-reference-manifest\.js is missing/);
    const empty = fakeBuild();
    writeFileSync(path.join(empty, "build-manifest.json"), "{}");
    writeFileSync(path.join(empty, "server", "app", "page_client-reference-manifest.js"), "globalThis.__RSC_MANIFEST = {};");
    expect(() => markFirstLoadChunks(empty)).toThrow(/name no first-load chunk/);
  });
});
