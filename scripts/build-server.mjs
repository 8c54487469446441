#!/usr/bin/env node
// The parts of the production server that answer before Next's router, bundled into .next/cmp/
// for scripts/serve.mjs: lib/demo-servers/node/demo-listener.ts (the demo MCP servers' direct path) and
// lib/routes/node/channel-listener.ts (the page's channel, docs/ARCHITECTURE.md "The channel").
// Runs after `next build` (part of `npm run build`); self-contained ES modules sharing their
// common code in chunks, so serve.mjs stays plain JavaScript. scripts/dev.mjs bundles the
// channel with the same options (`serverBundle`) and rebuilds it while its files change.
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** esbuild options for server modules loaded by plain JavaScript: Node, ESM, `server-only` as under Next's server bundler. */
export const serverBundle = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // `server-only` resolves to its empty server build, as under Next's server bundler.
  conditions: ["react-server"],
  // Some dependencies are CommonJS and call require() for Node's built-ins.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  logLevel: "warning",
  legalComments: "none",
};

/** The parts, by the name serve.mjs imports them by (scripts/package.mjs bundles them again for the package). */
export const SERVER_PARTS = { "demo-listener": "lib/demo-servers/node/demo-listener.ts", "channel-listener": "lib/routes/node/channel-listener.ts" };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await build({
    ...serverBundle,
    entryPoints: SERVER_PARTS,
    outdir: ".next/cmp",
    outExtension: { ".js": ".mjs" },
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
  });
}
