#!/usr/bin/env node
// `npm run dev`: builds the sandbox worker (scripts/build-worker.mjs), keeps rebuilding it while
// its files change, and runs `next dev` with any arguments given. Stopping one stops the other.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const first = spawnSync(process.execPath, ["scripts/build-worker.mjs"], { stdio: "inherit" });
if (first.status !== 0) process.exit(first.status ?? 1);

const watcher = spawn(process.execPath, ["scripts/build-worker.mjs", "--watch"], { stdio: "inherit" });
const next = spawn(process.execPath, [createRequire(import.meta.url).resolve("next/dist/bin/next"), "dev", ...process.argv.slice(2)], { stdio: "inherit" });

let ending = false;
const end = (code) => {
  if (ending) return;
  ending = true;
  watcher.kill();
  next.kill();
  process.exitCode = code;
};
watcher.on("exit", (code) => end(code ?? 1));
next.on("exit", (code) => end(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => end(0));
