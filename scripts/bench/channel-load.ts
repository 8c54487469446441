// The app's end of the channel under load and under attack, today's against an earlier
// version in the same run (BENCH_CHANNEL_BEFORE, a git ref; by default the commit before the
// channel's caps and buffers were bounded). Each version runs in a process of its own
// (channel-host.ts) whose RSS is read from /proc; rounds alternate between the two.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createChannelClient, type ChannelClient, type SocketLike } from "../../lib/channel/browser/channel-client";
import { clientFrame, neverReading, rawUpgrade, rawExchange, upgradeHead, writeUntilClosed } from "../../tests/fixtures/raw-upgrade";
import { endWithThisProcess } from "./reap";
import { median, type BenchRow } from "./rows";

const BEFORE_REF = process.env.BENCH_CHANNEL_BEFORE ?? "89fbce3";
const CHANNELS = 64;
const STREAMS_PER_CHANNEL = 16;
const KB_PER_STREAM = 256;
const ROUNDS = 3;
/** The hosts' cap of channels per client (channel-host.ts). */
const PER_CLIENT_CAP = 1_024;
const MODULE = path.resolve("lib/channel/node/channel-server.ts");
const BEFORE_MODULE = path.resolve("lib/channel/node/channel-server.bench-before.ts");
/** Where the channel's app end was at BEFORE_REF, and the http modules it imported from beside it. */
const BEFORE_PATH = "lib/http/node/channel-server.ts";
const fromBeside = (source: string) => source.replace(/"\.\.\/(route-error|rate-limit|read-body|body-end)"/g, '"../../http/$1"');

interface Host {
  name: string;
  child: ChildProcess;
  origin: string;
  rss(): number;
  stop(): void;
}

async function startHost(name: string, modulePath: string): Promise<Host> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/bench/channel-host.ts"), modulePath], { stdio: ["pipe", "pipe", "inherit"] });
  const forget = endWithThisProcess(() => child.kill("SIGKILL"));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`channel host (${name}) exited with ${code}`)));
  });
  return {
    name,
    child,
    origin: `http://127.0.0.1:${port}`,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
    stop: () => {
      forget();
      child.kill("SIGKILL");
    },
  };
}

const pageClient = (origin: string): ChannelClient =>
  createChannelClient({
    origin,
    openSocket: (url) => new WebSocket(url, { headers: { origin } } as unknown as string[]) as unknown as SocketLike,
    fallbackFetch: () => Promise.reject(new Error("the bench expects the channel")),
  });

/** 64 channels × 16 streams of 256 KiB at once: MiB/s through the channel and the host's peak RSS. */
async function throughput(host: Host): Promise<{ mibPerSecond: number; peakRss: number; baseRss: number }> {
  const clients = Array.from({ length: CHANNELS }, () => pageClient(host.origin));
  // Open every channel first, so the round times the streams only.
  await Promise.all(clients.map((client) => client.fetch(`${host.origin}/api/mcp/stdio/blob?kb=1`).then((r) => r.arrayBuffer())));
  const baseRss = host.rss();
  let peakRss = baseRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, host.rss())), 20);
  const started = performance.now();
  let bytes = 0;
  await Promise.all(
    clients.flatMap((client) =>
      Array.from({ length: STREAMS_PER_CHANNEL }, async () => {
        const response = await client.fetch(`${host.origin}/api/mcp/stdio/blob?kb=${KB_PER_STREAM}`);
        const body = await response.arrayBuffer();
        bytes += body.byteLength;
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  clients.forEach((client) => client.close());
  if (bytes !== CHANNELS * STREAMS_PER_CHANNEL * KB_PER_STREAM * 1024) throw new Error(`${host.name}: ${bytes} bytes arrived`);
  return { mibPerSecond: bytes / 2 ** 20 / seconds, peakRss, baseRss };
}

/** A client that never reads writes pings for `ms`: the host's RSS growth, and how long the channel lasted. */
async function pingFlood(host: Host, ms: number): Promise<{ growth: number; lastedMs: number; dropped: boolean }> {
  const before = host.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, host.rss())), 20);
  const socket = await neverReading(host.origin);
  const started = Date.now();
  await writeUntilClosed(socket, clientFrame(1, Buffer.from(JSON.stringify({ t: "ping", n: 1 }))), ms);
  const lastedMs = Date.now() - started;
  const dropped = socket.destroyed;
  socket.destroy();
  clearInterval(sampler);
  return { growth: peak - before, lastedMs, dropped };
}

/** As many upgrades ws refuses (version 7) as the host's cap per client, then a well-formed one: its status (101 accepted, 429 locked out). */
async function afterMalformed(host: Host): Promise<number> {
  for (let batch = 0; batch < PER_CLIENT_CAP / 64; batch++) {
    await Promise.all(Array.from({ length: 64 }, () => rawExchange(host.origin, upgradeHead(host.origin, { "sec-websocket-version": "7" }))));
  }
  return (await rawUpgrade(host.origin, { origin: host.origin })).status;
}

export async function benchChannelLoad(): Promise<BenchRow[]> {
  let hasBefore = true;
  try {
    writeFileSync(
      BEFORE_MODULE,
      fromBeside(execFileSync("git", ["show", `${BEFORE_REF}:${BEFORE_PATH}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })),
    );
  } catch {
    hasBefore = false;
  }
  const removeBefore = () => rmSync(BEFORE_MODULE, { force: true });
  const forgetRemoval = endWithThisProcess(removeBefore);
  const hosts: Host[] = [];
  try {
    hosts.push(await startHost("today", MODULE));
    if (hasBefore) hosts.push(await startHost(`before (${BEFORE_REF})`, BEFORE_MODULE));
    const runs = new Map<string, { rate: number[]; peak: number[]; base: number[] }>(hosts.map((h) => [h.name, { rate: [], peak: [], base: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const host of round % 2 ? [...hosts].reverse() : hosts) {
        const { mibPerSecond, peakRss, baseRss } = await throughput(host);
        const run = runs.get(host.name)!;
        run.rate.push(mibPerSecond);
        run.peak.push(peakRss);
        run.base.push(baseRss);
      }
    }
    const rows: BenchRow[] = [];
    const today = runs.get("today")!;
    for (const host of hosts) {
      const run = runs.get(host.name)!;
      const ratio = host.name === "today" ? "" : `; today ÷ this: ${(median(today.rate) / median(run.rate)).toFixed(2)}×`;
      rows.push({
        name: `channel (${host.name}): ${CHANNELS} channels × ${STREAMS_PER_CHANNEL} streams of ${KB_PER_STREAM} KiB at once, body throughput`,
        median: median(run.rate),
        unit: "MiB/s",
        note: `${ROUNDS} rounds, alternating${ratio}`,
      });
      rows.push({
        name: `channel (${host.name}): host RSS during those ${CHANNELS * STREAMS_PER_CHANNEL} streams, peak`,
        median: median(run.peak),
        unit: "MiB",
        note: `idle with ${CHANNELS} channels open: ${median(run.base).toFixed(0)} MiB`,
      });
    }
    // The flood before the malformed upgrades: those lock the earlier version's client out.
    for (const host of hosts) {
      const flood = await pingFlood(host, 8_000);
      rows.push({
        name: `channel (${host.name}): a client that never reads writes pings for up to 8 s, host RSS growth`,
        value: flood.growth,
        unit: "MiB",
        note: flood.dropped ? `closed after ${flood.lastedMs} ms` : "still connected after 8 s",
      });
    }
    for (const host of hosts) {
      const status = await afterMalformed(host);
      rows.push({
        name: `channel (${host.name}): a well-formed upgrade after ${PER_CLIENT_CAP} malformed ones from the same address (its cap)`,
        value: status,
        unit: "status",
        note: status === 101 ? "accepted" : "locked out",
      });
    }
    return rows;
  } finally {
    hosts.forEach((host) => host.stop());
    removeBefore();
    forgetRemoval();
  }
}
