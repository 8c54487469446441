#!/usr/bin/env node
// `npm run build`: the sandbox worker (scripts/build-worker.mjs), `next build`, then the parts of
// the production server that answer before Next's router (scripts/build-server.mjs), with Next's
// telemetry off unless the person opts in (scripts/next-env.mjs).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { quietNext } from "./next-env.mjs";

const env = quietNext({ ...process.env });
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
for (const args of [["scripts/build-worker.mjs"], [nextBin, "build"], ["scripts/build-server.mjs"]]) {
  const step = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (step.status !== 0) process.exit(step.status ?? 1);
}
