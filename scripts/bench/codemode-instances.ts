// The code-mode server on one instance against two behind the shipped nginx config
// (deploy/nginx/), sharing a real Redis, on this machine: programs per second and per-program
// latency (p50, p95) for the same load from 2026-07-28 clients (5 clients, 40 programs each,
// each program three parallel lab.echo calls). Both instances share the machine's cores with
// each other, nginx, Redis and the clients, so the ratio says what the proxy and the shared state
// cost here, not what a second machine would add. Needs the production build (`npm run build`).
// Run alone: `npx tsx scripts/bench/codemode-instances.ts`.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startAppServer, type AppServer } from "../../tests/fixtures/app-server";
import { freePort } from "../../tests/fixtures/free-port";
import { startNginx, type Nginx } from "../../tests/fixtures/nginx";
import { startRedis, type RedisServer } from "../../tests/fixtures/redis";
import { median, percentile, printRows, type BenchRow } from "./rows";

const TOKEN = `bench-instances-${"0123456789abcdef".repeat(2)}`;
const CLIENTS = 5;
const PROGRAMS = 40;
const ROUNDS = 3;
const PROGRAM = `const xs = await Promise.all([lab.echo({ message: who + "-a" }), lab.echo({ message: who + "-b" }), lab.echo({ message: who + "-c" })]); return xs.map((x) => x.message);`;

function configFor(port: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-bench-instances-"));
  const file = path.join(dir, "mcp.json");
  writeFileSync(file, JSON.stringify({ mcpServers: { lab: { type: "http", url: `http://127.0.0.1:${port}/api/demo-mcp/lab` } } }));
  return file;
}

async function modernClient(url: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

/** One round: every client runs its programs one after another, all clients at once. */
async function round(url: string): Promise<{ wallMs: number; latencies: number[] }> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => modernClient(url)));
  const latencies: number[] = [];
  const start = performance.now();
  try {
    await Promise.all(
      clients.map(async (client, c) => {
        for (let p = 0; p < PROGRAMS; p++) {
          const began = performance.now();
          const result = await client.callTool({ name: "execute_code", arguments: { code: PROGRAM, data: { who: `c${c}p${p}` } } });
          if (result.isError) throw new Error(`execute_code failed: ${JSON.stringify(result.content)}`);
          latencies.push(performance.now() - began);
        }
      }),
    );
    return { wallMs: performance.now() - start, latencies };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

async function measure(url: string): Promise<{ perSecond: number; p50: number; p95: number }> {
  await round(url);
  const walls: number[] = [];
  const latencies: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await round(url);
    walls.push(r.wallMs);
    latencies.push(...r.latencies);
  }
  return { perSecond: (CLIENTS * PROGRAMS * 1000) / median(walls), p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) };
}

export async function benchCodemodeInstances(): Promise<BenchRow[]> {
  let redis: RedisServer | undefined;
  let nginx: Nginx | undefined;
  const apps: AppServer[] = [];
  try {
    redis = await startRedis();
    const ports: [number, number] = [await freePort(), await freePort()];
    for (const port of ports) {
      apps.push(
        await startAppServer({
          port,
          env: {
            CMP_REDIS_URL: redis.url,
            CMP_REDIS_PREFIX: "bench-instances:",
            CMP_CODEMODE_TOKEN: TOKEN,
            CMP_CODEMODE_CONFIG: configFor(port),
            CMP_CODEMODE_RATE_PER_MINUTE: "1000000",
          },
        }),
      );
    }
    nginx = await startNginx(ports);
    const one = await measure(`http://127.0.0.1:${ports[0]}/api/codemode/mcp`);
    const two = await measure(`${nginx.origin}/api/codemode/mcp`);
    const n = CLIENTS * PROGRAMS;
    return [
      {
        name: "one instance, 2026-07-28 clients",
        value: one.perSecond,
        unit: "programs/s",
        note: `${CLIENTS} clients × ${PROGRAMS} programs of 3 parallel calls, median of ${ROUNDS} rounds; per program p50 ${one.p50.toFixed(1)} ms, p95 ${one.p95.toFixed(1)} ms`,
      },
      {
        name: "two instances behind nginx (round robin, shared Redis)",
        value: two.perSecond,
        unit: "programs/s",
        note: `the same ${n} programs: ${(two.perSecond / one.perSecond).toFixed(2)}× one instance; p50 ${two.p50.toFixed(1)} ms, p95 ${two.p95.toFixed(1)} ms (the proxy's hop included; the instances, nginx, Redis and the clients share this machine's cores)`,
      },
    ];
  } finally {
    await nginx?.stop();
    await Promise.all(apps.map((app) => app.stop()));
    await redis?.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows(await benchCodemodeInstances());
}
