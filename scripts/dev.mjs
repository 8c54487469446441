#!/usr/bin/env node
// `npm run dev [-- -p PORT] [-- -H HOST]`: the dev server with hot reload, and the page's channel.
// - Builds the sandbox worker (scripts/build-worker.mjs) and keeps rebuilding it while its files
//   change (a child process).
// - Serves Next in dev mode (Turbopack) from a server of its own, as scripts/serve.mjs serves the
//   production build, so that /api/channel (docs/channel.md, "The channel") exists in dev
//   too; other upgrades (Next's hot reload) go to Next. The channel's code
//   (lib/routes/node/channel-listener.ts) is bundled into .next/cmp-dev/ and rebuilt while its
//   files change; new channels use the newest build (reload the page).
// - Makes the stdio bridge's token as serve.mjs does (CMP_LOCAL_TOKEN when set to 32+ characters)
//   and prints the link with it, on loopback only.
// Stopping it stops the worker's watcher.
import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { context } from "esbuild";
import next from "next";
import { serverBundle } from "./build-server.mjs";
import { listenSettings, serverOptions } from "./listen-settings.mjs";
import { quietNext } from "./next-env.mjs";

const { port, host, local, token, base } = listenSettings();

const first = spawnSync(process.execPath, ["scripts/build-worker.mjs"], { stdio: "inherit" });
if (first.status !== 0) process.exit(first.status ?? 1);
const watcher = spawn(process.execPath, ["scripts/build-worker.mjs", "--watch"], { stdio: "inherit" });

// The channel, rebuilt while its files change; each build is imported afresh.
const outfile = path.resolve(".next/cmp-dev/channel-listener.mjs");
let channel;
let version = 0;
let firstBuilt;
const firstBuild = new Promise((resolve) => (firstBuilt = resolve));
const channelBuild = await context({
  ...serverBundle,
  entryPoints: ["lib/routes/node/channel-listener.ts"],
  outfile,
  plugins: [
    {
      name: "load-channel",
      setup: (build) =>
        build.onEnd(async (result) => {
          if (result.errors.length === 0) {
            const module = await import(`${pathToFileURL(outfile).href}?v=${++version}`);
            channel = module.appChannel();
            if (version > 1) console.log("channel rebuilt: new channels use it (reload the page)");
          }
          firstBuilt();
        }),
    },
  ],
});
await channelBuild.watch();
await firstBuild;

quietNext();
const app = next({ dev: true, turbopack: true, hostname: host, port, dir: process.cwd() });
await app.prepare();
const handle = app.getRequestHandler();
const nextUpgrade = app.getUpgradeHandler();

const server = http.createServer(serverOptions(), (request, response) => void handle(request, response));
server.on("upgrade", (request, socket, head) => {
  if (channel?.handleUpgrade(request, socket, head)) return;
  void nextUpgrade(request, socket, head);
});
server.listen(port, host, () => {
  const link = `${base}/`;
  console.log(
    local
      ? `Dev server ready: ${link}#cmp-token=${token}\n  Open this link: its #cmp-token lets the page start local stdio MCP servers.`
      : `Dev server ready on ${link} (hosted mode: no stdio bridge).`,
  );
});

let ending = false;
const end = (code) => {
  if (ending) return;
  ending = true;
  watcher.kill();
  void channelBuild.dispose();
  channel?.close();
  server.close();
  server.closeAllConnections?.();
  void app.close?.();
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2_000).unref();
};
watcher.on("exit", (code) => end(code ?? 1));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => end(0));
