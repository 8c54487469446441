// Runs in the bench page (bundled by scripts/bench/cloudflare-peer.ts): Cloudflare's iframe
// executor from @cloudflare/codemode, measured with the same programs as our worker.
import { IframeSandboxExecutor } from "@cloudflare/codemode/browser";
import { median } from "../../../lib/numbers/stats";

const providers = [{ name: "bench", fns: { noop: () => Promise.resolve(1) } }];

async function timed(executor: IframeSandboxExecutor, code: string): Promise<number> {
  const start = performance.now();
  const result = await executor.execute(code, providers);
  if (result.error) throw new Error(`the iframe executor failed: ${result.error}`);
  return performance.now() - start;
}

/** `return 1` run overhead (ms) and per host call in a 10 000-call fan-out (µs), as medians. */
async function measure(): Promise<{ run: number; call: number }> {
  const executor = new IframeSandboxExecutor({ timeout: 60_000 });
  for (let i = 0; i < 5; i++) await timed(executor, "async () => 1");
  const runs: number[] = [];
  for (let i = 0; i < 30; i++) runs.push(await timed(executor, "async () => 1"));
  const fanOut = "async () => { const xs = []; for (let i = 0; i < 10000; i++) xs.push(bench.noop({ i })); return (await Promise.all(xs)).length; }";
  const calls: number[] = [];
  for (let i = 0; i < 5; i++) calls.push(((await timed(executor, fanOut)) * 1000) / 10_000);
  return { run: median(runs), call: median(calls) };
}

/** Starts `while (true) {}` in the executor and does not wait for it (the bench asks the page whether it still answers). */
function spin(): void {
  void new IframeSandboxExecutor({ timeout: 2_000 }).execute("async () => { while (true) {} }", providers);
}

(window as unknown as { __cloudflarePeer: unknown }).__cloudflarePeer = { measure, spin };
