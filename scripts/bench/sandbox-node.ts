// Sandbox engine figures in Node (wasmfile release-sync, in-process: no worker, no postMessage).
// Prints figures only; nothing here asserts on time. Run alone: `npx tsx scripts/bench/sandbox-node.ts`.
import { pathToFileURL } from "node:url";
import { loadNodeEngine } from "../../lib/sandbox/node/node-engine";
import { callHostFor, hostApiOf } from "../../lib/sandbox/host-api";
import type { SandboxEngine } from "../../lib/sandbox/engine";
import type { HostFunctions, RunRequest } from "../../lib/sandbox/types";
import { median, printRows, type BenchRow } from "./rows";
import { benchRunPeer, FAN_OUT, PEER_IN_FLIGHT } from "./run-peer";

const HOST: HostFunctions = { bench: { noop: () => Promise.resolve(1) } };
const OPTIONS = { hostApi: hostApiOf(HOST) };
const CALL_HOST = callHostFor(HOST);

async function timed(engine: SandboxEngine, request: RunRequest): Promise<number> {
  const start = performance.now();
  const result = await engine.run(request, CALL_HOST, OPTIONS);
  const elapsed = performance.now() - start;
  if (!result.ok) throw new Error(`benchmark run failed: ${result.error.kind}: ${result.error.message}`);
  return elapsed;
}

/** Run overhead, host-call overhead and compute speed of the engine in Node, as medians. */
export async function benchSandboxNode(): Promise<BenchRow[]> {
  const colds: number[] = [];
  for (let i = 0; i < 5; i++) colds.push(await timed(loadNodeEngine(), { code: "return 1" }));

  const engine = loadNodeEngine();
  // Warm-up long enough for V8 to optimise the host side of the run loop.
  for (let i = 0; i < 300; i++) await timed(engine, { code: "return 1" });
  const overhead: number[] = [];
  for (let i = 0; i < 1000; i++) overhead.push(await timed(engine, { code: "return 1" }));

  const parallel: number[] = [];
  const sequential: number[] = [];
  for (let i = 0; i < 9; i++) {
    // 32 in flight: `run`'s default, so the peer row below runs the same program the same way.
    const limits = { maxCalls: 10_000, maxConcurrency: PEER_IN_FLIGHT };
    parallel.push(((await timed(engine, { code: FAN_OUT, limits })) * 1000) / 10_000);
    const awaited = "let n = 0; for (let i = 0; i < 1000; i++) n += await bench.noop({ i }); return n";
    sequential.push(((await timed(engine, { code: awaited })) * 1000) / 1000);
  }

  const compute: number[] = [];
  for (let i = 0; i < 3; i++) compute.push(await timed(engine, { code: "let s = 0; for (let i = 0; i < 1e7; i++) s += i; return s" }));

  const peer = await benchRunPeer();
  const ours = { run: median(overhead), call: median(parallel) };
  return [
    { name: "cold start: load WASM module + first run", median: median(colds), unit: "ms", note: "5 fresh modules" },
    { name: "run overhead: `return 1`", median: ours.run, unit: "ms", note: "1 000 runs after 300 to warm up; goal ≤ 0.5 ms" },
    { name: "host call, 10 000 through Promise.all", median: ours.call, unit: "µs/call", note: `9 runs, ${PEER_IN_FLIGHT} in flight` },
    { name: `peer \`run\` ${peer.version}: \`return 1\``, median: peer.run, unit: "ms", note: `${peer.runs} runs, same process` },
    {
      name: `peer \`run\` ${peer.version}: host call, 10 000 through Promise.all`,
      median: peer.call,
      unit: "µs/call",
      note: `9 runs, ${PEER_IN_FLIGHT} in flight`,
    },
    { name: "`run` ÷ ours, per run", value: peer.run / ours.run, unit: "×", note: "goal ≥ 8×" },
    { name: "`run` ÷ ours, per host call", value: peer.call / ours.call, unit: "×", note: "goal ≥ 10×" },
    { name: "host call, 1 000 sequential awaits", median: median(sequential), unit: "µs/call", note: "5 runs" },
    { name: "compute: 10^7-iteration loop", median: median(compute), unit: "ms", note: "3 runs; QuickJS is an interpreter" },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows(await benchSandboxNode());
}
