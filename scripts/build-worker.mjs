#!/usr/bin/env node
// The sandbox's Web Worker as one self-contained ES module: bundles lib/sandbox/worker/sandbox.worker.ts
// (its protocol, QuickJS's glue and the variant) into public/_sandbox/sandbox-worker.js, which the
// page starts with `new Worker("/_sandbox/sandbox-worker.js", { type: "module" })`. Turbopack split
// the same worker into eight chunks that the worker loaded one after another, each a round trip,
// before it could start (docs/speed.md, "The live path"). Runs before `next build` and
// `next dev` (package.json, scripts/dev.mjs). QuickJS's .wasm goes beside it under a name with its
// content's hash (quickjs.<hash>.wasm, cached for good: next.config.js), which the worker's bundle
// carries, so the worker needs nothing from the page to start: the page's first lines start it
// before any of the page's JavaScript has loaded (lib/sandbox/browser/early-worker.ts).
// public/_sandbox/ gets its own Content-Security-Policy (next.config.js): a worker may compile
// WebAssembly, the page may not.
//
// `--watch` (npm run dev: scripts/dev.mjs runs a plain build first): rebuilds the worker whenever
// a file it imports changes, so worker code reloads like the page's (on the page's next load). It
// never empties the folder, which the dev server is serving, and leaves sucrase.js as built.
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { build, context } from "esbuild";

const outdir = "public/_sandbox";
const wasmSource = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
const wasmName = `quickjs.${createHash("sha256").update(readFileSync(wasmSource)).digest("hex").slice(0, 16)}.wasm`;
const common = { bundle: true, platform: "browser", format: "esm", target: "es2022", minify: true, logLevel: "warning", legalComments: "none" };
const watch = process.argv.includes("--watch");

const worker = {
  ...common,
  entryPoints: ["lib/sandbox/worker/sandbox.worker.ts"],
  outfile: `${outdir}/sandbox-worker.js`,
  // The .wasm's address, relative to the worker's own (lib/sandbox/worker/sandbox.worker.ts).
  define: { __SANDBOX_WASM__: JSON.stringify(`./${wasmName}`) },
  plugins: [
    // Sucrase (TypeScript stripping, about 180 KB) is imported only when a program needs it, from a
    // file of its own beside the worker.
    { name: "sucrase-apart", setup: (b) => b.onResolve({ filter: /^sucrase$/ }, () => ({ path: "./sucrase.js", external: true })) },
  ],
};

/** Puts the .wasm beside the worker; the dev server's watch never empties the folder, so it is copied there too. */
function copyWasm() {
  mkdirSync(outdir, { recursive: true });
  copyFileSync(wasmSource, `${outdir}/${wasmName}`);
}

if (watch) {
  copyWasm();
  let first = true;
  const announce = {
    name: "announce",
    setup: (b) =>
      b.onEnd((result) => {
        if (!first && result.errors.length === 0) console.log(`sandbox worker rebuilt: ${worker.outfile} (reload the page to use it)`);
        first = false;
      }),
  };
  const watching = await context({ ...worker, plugins: [...worker.plugins, announce] });
  await watching.watch();
} else {
  rmSync(outdir, { recursive: true, force: true });
  copyWasm();
  await build(worker);
  await build({
    ...common,
    stdin: { contents: 'export { transform } from "sucrase";', resolveDir: ".", loader: "js" },
    outfile: `${outdir}/sucrase.js`,
  });
}
