// V8's explicit compile hints for the page's first load (docs/speed.md, "The page's start").
// Chromium compiles a script's functions lazily, on the main thread, the first time each is
// called; the page calls most of what its first-load chunks hold while it starts, so that
// compiling was about 150 ms of the start's main thread, much of it in one long task. A script
// whose first line is `//# allFunctionsCalledOnLoad` has every function compiled up front, on a
// background thread while it streams in. After `next build`, this marks the chunks the page's
// HTML loads: Next's runtime (build-manifest.json's rootMainFiles) and the layout's and page's
// own (the page's client-reference manifest). Later chunks (Monaco, dialogs) stay lazy.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/** The chunks (paths relative to the .next folder) that the page at `route` loads before it can be used. */
export function firstLoadChunks(nextDir, route = "/page") {
  const manifestPath = path.join(nextDir, "server", "app", `${route.slice(1)}_client-reference-manifest.js`);
  const buildManifest = JSON.parse(readFileSync(path.join(nextDir, "build-manifest.json"), "utf8"));
  if (!existsSync(manifestPath)) throw new Error(`compile hints: ${manifestPath} is missing; did next build change its output?`);
  const context = { globalThis: {} };
  context.globalThis = context;
  runInNewContext(readFileSync(manifestPath, "utf8"), context);
  const entries = context.__RSC_MANIFEST?.[route]?.entryJSFiles ?? {};
  const files = new Set(buildManifest.rootMainFiles ?? []);
  for (const [entry, chunks] of Object.entries(entries)) if (/^\[project\]\/app\/(page|layout)$/.test(entry)) for (const chunk of chunks) files.add(chunk);
  const chunks = [...files].filter((f) => f.endsWith(".js"));
  if (chunks.length === 0) throw new Error("compile hints: the manifests name no first-load chunk; did next build change its output?");
  return chunks;
}

/** Puts the hint on the first line of each first-load chunk that lacks it; returns the chunks marked now. */
export function markFirstLoadChunks(nextDir, route = "/page") {
  const marked = [];
  for (const chunk of firstLoadChunks(nextDir, route)) {
    const file = path.join(nextDir, chunk);
    const text = readFileSync(file, "utf8");
    if (text.startsWith(COMPILE_HINT)) continue;
    writeFileSync(file, COMPILE_HINT + text);
    marked.push(chunk);
  }
  return marked;
}
