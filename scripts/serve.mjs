#!/usr/bin/env node
// Serves the production build (run `next build` first) and prints the playground's URL.
//
//   node scripts/serve.mjs [--port 3000] [--host 127.0.0.1]
//
// Why not plain `next start`: this server
// - makes the stdio bridge's local token (32 random bytes, or CMP_LOCAL_TOKEN when set) and
//   shows it only here, in the fragment of the printed URL, which browsers never send to a
//   server (docs/deploying.md, "Security"); on a non-loopback address it prints no token,
//   since the bridge is off there anyway;
// - writes X-Forwarded-For itself: the socket's address, appended to the chain when
//   CMP_TRUST_PROXY says a proxy in front is trusted, replacing it otherwise, so a client cannot
//   pick its own rate-limit key; CMP_SERVER=serve tells the routes the header is ours;
// - answers the demo MCP servers' paths (/api/demo-mcp/<name>) itself, before Next's router,
//   with the same guarded handler and headers (lib/demo-servers/node/demo-listener.ts, bundled by
//   `npm run build`): the router cost more per call than the demo server's answer;
// - takes WebSocket upgrades on /api/channel: the page's one channel to the app
//   (lib/routes/node/channel-listener.ts, bundled by `npm run build`).
// Plain JavaScript so that it runs on a production install without the TypeScript toolchain.
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import next from "next";
import nextConfig from "../next.config.js";
import { listenSettings, serverOptions } from "./listen-settings.mjs";
import { quietNext } from "./next-env.mjs";

const { port, host, local, token, base } = listenSettings();
process.env.CMP_SERVER = "serve";
// The same rule as trustedProxyHops (lib/http/server/deployment.ts): true/yes is 1, else an integer 1 to 9.
const trust = process.env.CMP_TRUST_PROXY?.trim() ?? "";
const hops = /^(true|yes)$/i.test(trust) ? 1 : Number.isInteger(Number(trust)) && Number(trust) > 0 && Number(trust) < 10 ? Number(trust) : 0;

quietNext();
const app = next({ dev: false, hostname: host, port, dir: process.cwd() });
await app.prepare();
const handle = app.getRequestHandler();

// The headers next.config.js gives every path, which Next would have added to these answers.
const everyPath = (await nextConfig.headers()).find((rule) => rule.source === "/:path*");
const headers = Object.fromEntries((everyPath?.headers ?? []).map(({ key, value }) => [key.toLowerCase(), value]));
// The demo servers' direct path and the page's channel load after the server has answered its
// first request (the page, as a rule), or a second after it listens, or at the first upgrade,
// whichever comes first: their modules (the MCP SDK, every API route) take longer to evaluate than
// Next takes to prepare, and the browser is busy with the page's own scripts meanwhile. Until then
// Next's router answers the demo servers, and an upgrade waits for the channel.
let demo;
let channel;
const loadListeners = async () => {
  const listenerFile = path.join(process.cwd(), ".next", "cmp", "demo-listener.mjs");
  demo = existsSync(listenerFile) ? (await import(pathToFileURL(listenerFile).href)).demoRequestListener({ base, headers }) : undefined;
  if (!demo) process.stderr.write(`${listenerFile} is missing (run \`npm run build\`): Next's router answers the demo servers.\n`);
  const channelFile = path.join(process.cwd(), ".next", "cmp", "channel-listener.mjs");
  channel = existsSync(channelFile) ? (await import(pathToFileURL(channelFile).href)).appChannel() : undefined;
  if (!channel) process.stderr.write(`${channelFile} is missing (run \`npm run build\`): the page falls back to plain HTTP requests.\n`);
};
let listenersLoaded;
/** Starts loading them once; a build that cannot load them stops the server, loudly. */
const listenersReady = () =>
  (listenersLoaded ??= loadListeners().catch((error) => {
    process.stderr.write(`The server's listeners in .next/cmp/ did not load: ${error?.stack ?? error}\n`);
    process.exit(1);
  }));

// Our X-Forwarded-For, never the client's own (see the header comment).
const forwardFor = (request) => {
  const socket = request.socket.remoteAddress ?? "unknown";
  const chain = request.headers["x-forwarded-for"];
  const kept = hops > 0 && typeof chain === "string" && chain.trim() !== "" ? `${chain}, ` : "";
  request.headers["x-forwarded-for"] = `${kept}${socket}`;
};

const server = http.createServer(serverOptions(), (request, response) => {
  forwardFor(request);
  if (!listenersLoaded) response.once("finish", () => void listenersReady());
  if (demo?.(request, response)) return;
  void handle(request, response);
});
// The page's channel (/api/channel): one WebSocket per page carrying its API requests, so a
// person's many servers never hold the browser's six connections to this origin.
const upgrade = (request, socket, head) => {
  if (channel?.handleUpgrade(request, socket, head)) return;
  socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
};
server.on("upgrade", (request, socket, head) => {
  forwardFor(request);
  if (channel) upgrade(request, socket, head);
  // A client that left while the channel loaded gets nothing.
  else void listenersReady().then(() => socket.destroyed || upgrade(request, socket, head));
});
server.listen(port, host, () => {
  const link = `${base}/`;
  const lines = local
    ? [
        `Code Mode Playground is ready: ${link}#cmp-token=${token}`,
        "  Open this link: its #cmp-token lets the page start local stdio MCP servers.",
        "  The plain URL works too, without stdio servers. Keep the link to yourself.",
      ]
    : [
        `Code Mode Playground is ready on ${link} (hosted mode: no stdio bridge).`,
        "  See docs/deploying.md: CMP_ALLOWED_HOSTS, CMP_ACCESS_SECRET, CMP_TRUST_PROXY.",
      ];
  process.stdout.write(`${lines.join("\n")}\n`);
  setTimeout(() => void listenersReady(), 1_000);
});
const stop = async () => {
  await listenersLoaded;
  channel?.close();
  server.close(() => process.exit(0));
  // Open keep-alive sockets would hold close() forever.
  server.closeAllConnections?.();
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
