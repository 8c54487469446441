// The two protocol eras through the page's own client code (lib/mcp/connection.ts) in Node, on
// one server built on the v2 server package that answers both (createMcpHandler, legacy
// "stateless"): 2026-07-28 (no session, every request carries its version) against 2025-11-25
// (initialize first), each beside the floor of the same run (a bare fetch of the same JSON-RPC
// request). Rounds alternate between the eras. Then the news demo server as the app serves it
// (lib/demo-servers/http-handler.ts), each era from its own pool of servers (2026-07-28 through the
// SDK's createMcpHandler). docs/mcp-client.md, "Protocol eras".
import { connectToServer, type ConnectOptions } from "../../lib/mcp/connection";
import type { ServerConfig } from "../../lib/mcp/types";
import { startModernServer } from "../../tests/fixtures/mcp/modern-server";
import { startDemoHost } from "../../lib/demo-servers/node/demo-host";
import { median, type BenchRow } from "./rows";

const ROUNDS = 7;
const SEQUENTIAL = 200;
const PARALLEL = 1_000;

export async function benchEras(): Promise<BenchRow[]> {
  const server = await startModernServer({ legacy: "stateless", tasks: false });
  const url = `${server.url}/mcp`;
  const config: ServerConfig = { id: "eras", name: "eras", transport: "streamable-http", url, headers: {}, enabled: true };
  const options = (era: "modern" | "legacy"): ConnectOptions => ({ baseUrl: "http://127.0.0.1", proxyUrl: "/api/mcp/proxy", via: "direct", era });
  const eras = ["modern", "legacy"] as const;
  const figures = Object.fromEntries(eras.map((era) => [era, { connect: [] as number[], sequential: [] as number[], parallel: [] as number[] }]));
  const floor = { sequential: [] as number[], parallel: [] as number[] };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "m" } } });
  const bare = () =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body,
    }).then((response) => response.text());
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const era of round % 2 ? [...eras].reverse() : eras) {
        const started = performance.now();
        const connection = await connectToServer(config, options(era));
        figures[era]!.connect.push(performance.now() - started);
        let at = performance.now();
        for (let i = 0; i < SEQUENTIAL; i++) await connection.callTool("echo", { message: "m" });
        figures[era]!.sequential.push((performance.now() - at) / SEQUENTIAL);
        at = performance.now();
        await Promise.all(Array.from({ length: PARALLEL }, () => connection.callTool("echo", { message: "m" })));
        figures[era]!.parallel.push(performance.now() - at);
        await connection.close();
      }
      let at = performance.now();
      for (let i = 0; i < SEQUENTIAL; i++) await bare();
      floor.sequential.push((performance.now() - at) / SEQUENTIAL);
      at = performance.now();
      await Promise.all(Array.from({ length: PARALLEL }, bare));
      floor.parallel.push(performance.now() - at);
    }
  } finally {
    await server.close();
  }
  const rows: BenchRow[] = [];
  const name = { modern: "2026-07-28 (stateless)", legacy: "2025-11-25 (initialize, stateless server)" };
  for (const era of eras) {
    const f = figures[era]!;
    rows.push({ name: `${name[era]}: connect`, median: median(f.connect), unit: "ms", note: `${ROUNDS} connects, alternating eras` });
    rows.push({
      name: `${name[era]}: one sequential echo call`,
      median: median(f.sequential),
      unit: "ms",
      note: `${SEQUENTIAL} awaited calls a round; ${(median(f.sequential) / median(floor.sequential)).toFixed(2)}× the floor`,
    });
    rows.push({
      name: `${name[era]}: ${PARALLEL} parallel echo calls`,
      median: median(f.parallel),
      unit: "ms",
      note: `${(median(f.parallel) / median(floor.parallel)).toFixed(2)}× the floor`,
    });
  }
  rows.push({
    name: "floor: one bare fetch of the same tools/call",
    median: median(floor.sequential),
    unit: "ms",
    note: "2025-era stateless request, no client",
  });
  rows.push({ name: `floor: ${PARALLEL} bare fetches at once`, median: median(floor.parallel), unit: "ms" });
  rows.push(...(await benchDemoEras()));
  return rows;
}

/** news.web_search on the demo host in each era. */
async function benchDemoEras(): Promise<BenchRow[]> {
  const host = await startDemoHost();
  const config: ServerConfig = { id: "news", name: "news", transport: "streamable-http", url: host.urlFor("news"), headers: {}, enabled: true };
  const eras = ["modern", "legacy"] as const;
  const figures = Object.fromEntries(eras.map((era) => [era, { sequential: [] as number[], parallel: [] as number[] }]));
  const args = { query: "election", limit: 3 };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const era of round % 2 ? [...eras].reverse() : eras) {
        const connection = await connectToServer(config, { baseUrl: "http://127.0.0.1", proxyUrl: "/api/mcp/proxy", via: "direct", era });
        let at = performance.now();
        for (let i = 0; i < SEQUENTIAL; i++) await connection.callTool("web_search", args);
        figures[era]!.sequential.push((performance.now() - at) / SEQUENTIAL);
        at = performance.now();
        await Promise.all(Array.from({ length: PARALLEL }, () => connection.callTool("web_search", args)));
        figures[era]!.parallel.push(performance.now() - at);
        await connection.close();
      }
    }
  } finally {
    await host.close();
  }
  const name = { modern: "demo news, 2026-07-28 (pooled servers)", legacy: "demo news, 2025-11-25 (pooled servers)" };
  const legacy = figures.legacy!;
  return eras.flatMap((era) => {
    const f = figures[era]!;
    return [
      {
        name: `${name[era]}: one sequential web_search`,
        median: median(f.sequential),
        unit: "ms",
        note: era === "modern" ? `${(median(f.sequential) / median(legacy.sequential)).toFixed(2)}× the 2025 path` : `${SEQUENTIAL} awaited calls a round`,
      },
      {
        name: `${name[era]}: ${PARALLEL} parallel web_search`,
        median: median(f.parallel),
        unit: "ms",
        note: era === "modern" ? `${(median(f.parallel) / median(legacy.parallel)).toFixed(2)}× the 2025 path` : `${ROUNDS} rounds, alternating eras`,
      },
    ];
  });
}
