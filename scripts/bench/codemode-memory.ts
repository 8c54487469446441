// Memory of the code-mode MCP server over 12 000 programs (issue 28): 5 SDK clients over
// Streamable HTTP on loopback, 100 executions at a time, each program three lab.echo calls and a
// little allocation, on a pool of 2 worker threads. Sampled after every 2 000 with a full GC, then
// attributed: the main thread's JS heap and buffers, what closing the pool's threads gives back
// (their QuickJS WASM memories and isolates), and the rest (the allocator's arenas, code).
// Figures only. Run alone: `npx tsx scripts/bench/codemode-memory.ts`.
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** The code-mode server speaks 2025-11-25: the client asks with `initialize`, without a `server/discover` probe first. */
const LEGACY = { versionNegotiation: { mode: "legacy" as const } };
import { parseCodeModeConfig } from "../../lib/codemode-mcp/config";
import { createCodeModeMcpServer } from "../../lib/codemode-mcp/mcp-server";
import { CodeModeHttpEndpoint } from "../../lib/codemode-mcp/node/http-endpoint";
import { openCodeModeServer } from "../../lib/codemode-mcp/node/open";
import { startLoopbackServer } from "../../lib/http/node/loopback-server";
import { startDemoHost } from "../../lib/demo-servers/node/demo-host";
import type { BenchRow } from "./rows";

const TOKEN = "bench-token-0123456789abcdef0123456789";
const PROGRAMS = 12_000;
const AT_ONCE = 100;
const MB = 1024 * 1024;
const PROGRAM = `const parts = await Promise.all([1, 2, 3].map((i) => lab.echo({ message: "m" + i })));
const rows = Array.from({ length: 200 }, (_, i) => ({ i, text: "row " + i }));
return { n: parts.length, size: JSON.stringify(rows).length };`;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function sample(): { rss: number; heap: number; heapTotal: number; buffers: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss / MB, heap: m.heapUsed / MB, heapTotal: m.heapTotal / MB, buffers: (m.external + m.arrayBuffers) / MB };
}

export async function benchCodemodeMemory(): Promise<BenchRow[]> {
  const demo = await startDemoHost();
  const parsed = parseCodeModeConfig({ mcpServers: { lab: { type: "http", url: demo.urlFor("lab") } }, codeMode: { maxConcurrent: 2, queueLimit: 200 } }, 2);
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const opened = await openCodeModeServer(parsed, { baseUrl: demo.url });
  const endpoint = new CodeModeHttpEndpoint({ token: TOKEN, newServer: () => createCodeModeMcpServer(opened.service) });
  const host = await startLoopbackServer((request) => endpoint.handle(request));
  const clients = await Promise.all(
    Array.from({ length: 5 }, async (_, i) => {
      const c = new Client({ name: `memory-${i}`, version: "1.0.0" }, LEGACY);
      await c.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      return c;
    }),
  );
  try {
    await opened.pool.warmUp();
    const start = sample();
    const points: Array<{ done: number; rss: number; heap: number }> = [];
    let failed = 0;
    for (let done = 0; done < PROGRAMS; done += AT_ONCE) {
      const results = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) => clients[i % 5]!.callTool({ name: "execute_code", arguments: { code: PROGRAM } })),
      );
      failed += results.filter((r) => r.isError).length;
      if ((done + AT_ONCE) % 2_000 === 0) {
        const s = sample();
        points.push({ done: done + AT_ONCE, rss: s.rss, heap: s.heap });
      }
    }
    const end = sample();
    opened.pool.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const poolClosed = sample();
    const curve = points.map((p) => `${p.done / 1000}k: ${p.rss.toFixed(0)}`).join(", ");
    return [
      {
        name: "RSS after warm-up (2 threads)",
        value: start.rss,
        unit: "MB",
        note: `main heap ${start.heap.toFixed(1)} MB, buffers ${start.buffers.toFixed(1)} MB`,
      },
      {
        name: `RSS after ${PROGRAMS.toLocaleString("en")} programs`,
        value: end.rss,
        unit: "MB",
        note: `${failed} failed; RSS by programs run (MB): ${curve}`,
      },
      {
        name: "main thread's JS heap after them (full GC)",
        value: end.heap,
        unit: "MB",
        note: `${(end.heap - start.heap).toFixed(1)} MB more than after warm-up: what the process keeps (sessions, the run feed, caches); V8 holds ${end.heapTotal.toFixed(0)} MB for it (${start.heapTotal.toFixed(0)} after warm-up); buffers ${end.buffers.toFixed(1)} MB`,
      },
      {
        name: "given back by closing the pool's 2 threads",
        value: end.rss - poolClosed.rss,
        unit: "MB",
        note: "their QuickJS WASM memories (a WebAssembly memory never shrinks) and isolates",
      },
      {
        name: "RSS left with the pool closed",
        value: poolClosed.rss,
        unit: "MB",
        note: `${(poolClosed.rss - start.rss).toFixed(0)} MB above warm-up: the allocator's arenas and compiled code`,
      },
    ];
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    endpoint.close();
    await host.close();
    await opened.close();
    await demo.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printRows } = await import("./rows");
  printRows(await benchCodemodeMemory());
}
