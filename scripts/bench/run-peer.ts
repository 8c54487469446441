// The peer measured beside our Node engine in the same process: `run` (the QuickJS runtime under
// the AI SDK's code mode), a devDependency pinned for the comparison. Same programs, same host
// function, the same calls in flight.
import { createRequire } from "node:module";
import { run } from "run";
import { median } from "./rows";

/** The host-call program both engines run: 10 000 calls through Promise.all. */
export const FAN_OUT = "const xs = []; for (let i = 0; i < 10000; i++) xs.push(bench.noop({ i })); return (await Promise.all(xs)).length";
/** Calls in flight for both: `run`'s default. */
export const PEER_IN_FLIGHT = 32;

const RUNS = 100;

async function timedRun(source: string, limits: Record<string, number> = {}): Promise<number> {
  const start = performance.now();
  const result = await run({ source, hostFunctions: { bench: { noop: () => Promise.resolve(1) } }, limits });
  const elapsed = performance.now() - start;
  if (result.status !== "completed") throw new Error(`run ${result.status}`);
  return elapsed;
}

/** `run`'s median per `return 1` run (ms) and per host call in a 10 000-call fan-out (µs). */
export async function benchRunPeer(): Promise<{ version: string; runs: number; run: number; call: number }> {
  const version = (createRequire(import.meta.url)("run/package.json") as { version: string }).version;
  for (let i = 0; i < 10; i++) await timedRun("return 1");
  const overhead: number[] = [];
  for (let i = 0; i < RUNS; i++) overhead.push(await timedRun("return 1"));
  const calls: number[] = [];
  const limits = { maxBridgeRequests: 10_000, maxInFlightBridgeRequests: PEER_IN_FLIGHT };
  for (let i = 0; i < 9; i++) calls.push(((await timedRun(FAN_OUT, limits)) * 1000) / 10_000);
  return { version, runs: RUNS, run: median(overhead), call: median(calls) };
}
