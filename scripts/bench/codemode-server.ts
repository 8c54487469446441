// What the code-mode MCP server's execute_code adds over calling a tool directly, over real
// Streamable HTTP on loopback: per run, per inner call, and throughput of 100 concurrent
// executions of a 10-call program; a 2026-07-28 client (stateless) beside a 2025-11-25 one (a
// session), and an approval asked by a multi-round-trip request beside one asked by elicitation.
// Figures only; nothing asserts on time.
// Run alone: `npx tsx scripts/bench/codemode-server.ts`.
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** A 2025-11-25 client: `initialize` and a session, no `server/discover` probe first. */
const LEGACY = { versionNegotiation: { mode: "legacy" as const } };
/** A 2026-07-28 client: stateless requests. */
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } };
import { parseCodeModeConfig } from "../../lib/codemode-mcp/config";
import { createCodeModeMcpServer } from "../../lib/codemode-mcp/mcp-server";
import { CodeModeHttpEndpoint } from "../../lib/codemode-mcp/node/http-endpoint";
import { openCodeModeServer } from "../../lib/codemode-mcp/node/open";
import { startLoopbackServer } from "../../lib/http/node/loopback-server";
import { startDemoHost } from "../../lib/demo-servers/node/demo-host";
import { median, printRows, type BenchRow } from "./rows";

const TOKEN = "bench-token-0123456789abcdef0123456789";

async function client(url: string, headers: Record<string, string> = {}, era: typeof LEGACY | typeof MODERN = LEGACY, approve = false): Promise<Client> {
  const c = new Client({ name: "bench", version: "1.0.0" }, { ...era, ...(approve ? { capabilities: { elicitation: { form: {} } } } : {}) });
  if (approve) c.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { approve: true } }));
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function samples(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(fn));
  return out;
}

export async function benchCodemodeServer(): Promise<BenchRow[]> {
  const demo = await startDemoHost();
  const cpus = availableParallelism();
  // store.place_order is destructive and asked about; its mock answers, so the bench orders nothing.
  const parsed = parseCodeModeConfig(
    {
      mcpServers: { lab: { type: "http", url: demo.urlFor("lab") }, store: { type: "http", url: demo.urlFor("store") } },
      codeMode: { queueLimit: 200, destructive: { store: "ask" }, mocks: { store: { place_order: { kind: "value", value: { ok: true } } } } },
    },
    cpus,
  );
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const opened = await openCodeModeServer(parsed, { baseUrl: demo.url });
  const endpoint = new CodeModeHttpEndpoint({ token: TOKEN, newServer: () => createCodeModeMcpServer(opened.service) });
  const host = await startLoopbackServer((request) => endpoint.handle(request));
  const auth = { authorization: `Bearer ${TOKEN}` };
  const direct = await client(demo.urlFor("lab"));
  const agent = await client(`${host.url}/mcp`, auth);
  const modern = await client(`${host.url}/mcp`, auth, MODERN);
  const asked = await client(`${host.url}/mcp`, auth, LEGACY, true);
  const askedModern = await client(`${host.url}/mcp`, auth, MODERN, true);
  const executeOn = async (on: Client, code: string) => {
    const result = await on.callTool({ name: "execute_code", arguments: { code } });
    if (result.isError) throw new Error(`execute_code failed: ${JSON.stringify(result.content)}`);
    return result;
  };
  const execute = (code: string) => executeOn(agent, code);
  const ORDER = `return await store.place_order({ cartId: "c", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" })`;
  try {
    await opened.pool.warmUp();
    const directCall = median(await samples(100, () => direct.callTool({ name: "echo", arguments: { message: "x" } })));
    const empty = median(await samples(100, () => execute("return 1")));
    const oneCall = median(await samples(100, () => execute(`return (await lab.echo({ message: "x" })).message`)));
    const emptyModern = median(await samples(100, () => executeOn(modern, "return 1")));
    const oneCallModern = median(await samples(100, () => executeOn(modern, `return (await lab.echo({ message: "x" })).message`)));
    const approvedSession = median(await samples(50, () => executeOn(asked, ORDER)));
    const approvedModern = median(await samples(50, () => executeOn(askedModern, ORDER)));
    const SEQ = 100;
    const sequential = median(
      await samples(5, () => execute(`let n = 0; for (let i = 0; i < ${SEQ}; i++) n += (await lab.echo({ message: "x" })).message.length; return n`)),
    );
    const directSequential = median(
      await samples(5, async () => {
        for (let i = 0; i < SEQ; i++) await direct.callTool({ name: "echo", arguments: { message: "x" } });
      }),
    );

    // 100 executions at once from 5 clients, each a program of 10 parallel calls.
    const agents = await Promise.all(Array.from({ length: 5 }, () => client(`${host.url}/mcp`, auth)));
    const TEN = `const xs = []; for (let i = 0; i < 10; i++) xs.push(lab.echo({ message: "m" + i })); return (await Promise.all(xs)).length`;
    const burst = async () => {
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => agents[i % 5]!.callTool({ name: "execute_code", arguments: { code: TEN } })));
      const failed = results.filter((r) => r.isError).length;
      if (failed > 0) throw new Error(`${failed} of 100 executions failed`);
    };
    await burst();
    const bursts: number[] = [];
    for (let i = 0; i < 3; i++) bursts.push(await timed(burst));
    const burstMs = median(bursts);
    // The same 1 000 calls made directly, from 5 clients too. (The SDK's HTTP client keeps an abort
    // listener per request until it is collected, so each client gets few bursts.)
    const directs = await Promise.all(Array.from({ length: 5 }, () => client(demo.urlFor("lab"))));
    const directBurstOnce = () =>
      Promise.all(Array.from({ length: 1000 }, (_, i) => directs[i % 5]!.callTool({ name: "echo", arguments: { message: `m${i}` } })));
    await directBurstOnce();
    const directBursts: number[] = [];
    for (let i = 0; i < 3; i++) directBursts.push(await timed(directBurstOnce));
    const directBurst = median(directBursts);
    await Promise.all(directs.map((d) => d.close()));
    await Promise.all(agents.map((a) => a.close()));

    return [
      { name: "direct MCP call to lab.echo (no code mode)", median: directCall, unit: "ms", note: "100 sequential calls over Streamable HTTP, the baseline" },
      {
        name: "execute_code `return 1` (no tool call)",
        median: empty,
        unit: "ms",
        note: `100 runs: MCP round trip + a fresh QuickJS context on a worker thread (pool of ${cpus})`,
      },
      {
        name: "execute_code with one lab.echo call",
        median: oneCall,
        unit: "ms",
        note: `100 runs; adds ${(oneCall - directCall).toFixed(2)} ms over the direct call`,
      },
      {
        name: "execute_code `return 1`, 2026-07-28 client (stateless)",
        median: emptyModern,
        unit: "ms",
        note: `100 runs; ${(emptyModern / empty).toFixed(2)}× the 2025-11-25 session's ${empty.toFixed(2)} ms (a fresh server per request)`,
      },
      {
        name: "execute_code with one lab.echo call, 2026-07-28 client",
        median: oneCallModern,
        unit: "ms",
        note: `100 runs; ${(oneCallModern / oneCall).toFixed(2)}× the session's`,
      },
      {
        name: "a destructive call asked and approved, 2025-11-25 (elicitation request)",
        median: approvedSession,
        unit: "ms",
        note: `50 runs of a program whose one call is asked about (mocked answer); ${(approvedSession - empty).toFixed(2)} ms over \`return 1\``,
      },
      {
        name: "the same, 2026-07-28 (input_required, then the call again)",
        median: approvedModern,
        unit: "ms",
        note: `50 runs: two requests, the program waiting between them; ${(approvedModern / approvedSession).toFixed(2)}× the elicitation round`,
      },
      {
        name: `per inner call, ${SEQ} sequential lab.echo in one program`,
        value: (sequential - empty) / SEQ,
        unit: "ms/call",
        note: `median of 5 programs; direct sequential calls: ${(directSequential / SEQ).toFixed(2)} ms/call (${((sequential - empty) / directSequential).toFixed(2)}× of direct)`,
      },
      {
        name: "100 concurrent executions of a 10-call program (5 clients)",
        median: burstMs,
        unit: "ms",
        note: `median of 3 bursts: ${(100_000 / burstMs).toFixed(0)} executions/s, ${(1_000_000 / burstMs).toFixed(0)} tool calls/s; the same 1 000 calls made directly in parallel from 5 clients: ${directBurst.toFixed(0)} ms`,
      },
    ];
  } finally {
    await direct.close();
    await Promise.all([agent, modern, asked, askedModern].map((c) => c.close()));
    endpoint.close();
    await host.close();
    await opened.close();
    await demo.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows(await benchCodemodeServer());
}
