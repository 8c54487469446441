#!/usr/bin/env node
// The part of the production server that answers before Next's router: bundles
// lib/mcp/node/demo-listener.ts (the demo MCP servers' direct path) into
// .next/cmp/demo-listener.mjs, which scripts/serve.mjs loads. Runs after `next build` (part of
// `npm run build`); one self-contained ES module, so serve.mjs stays plain JavaScript.
import { build } from "esbuild";

await build({
  entryPoints: ["lib/mcp/node/demo-listener.ts"],
  outfile: ".next/cmp/demo-listener.mjs",
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
});
