#!/usr/bin/env node
// `npm run build`: the sandbox worker (scripts/build-worker.mjs), `next build`, V8's compile hints
// on the page's first-load chunks (scripts/compile-hints.mjs), then the parts of the production
// server that answer before Next's router (scripts/build-server.mjs), with Next's telemetry off
// unless the person opts in (scripts/next-env.mjs).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { markFirstLoadChunks } from "./compile-hints.mjs";
import { quietNext } from "./next-env.mjs";

const env = quietNext({ ...process.env });
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const run = (args) => {
  const step = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (step.status !== 0) process.exit(step.status ?? 1);
};
run(["scripts/build-worker.mjs"]);
run([nextBin, "build"]);
console.log(`Compile hints on ${markFirstLoadChunks(".next").length} first-load chunks.`);
run(["scripts/build-server.mjs"]);
