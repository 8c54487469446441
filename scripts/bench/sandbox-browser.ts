// Measures the sandbox in Chromium through the real module worker (postMessage included):
// builds the app, serves it as `npm start` does on a free loopback port, opens /bench and
// reads the figures the page measured. Set BENCH_URL to measure an already running app.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "../../tests/fixtures/free-port";
import { chromium } from "@playwright/test";
import { chromiumPath, CHROMIUM_ARGS } from "../../tests/e2e/chromium";
import { median, type BenchRow } from "./rows";
import { benchCloudflarePeer } from "./cloudflare-peer";
import { endWithThisProcess, killGroup } from "./reap";

/** Resolves once `url` answers 200; fails when `child` exits first or the time runs out. */
export async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server for ${url} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    // Often enough that the package bench's start times are not rounded up by much.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Builds the app and serves the production build on a free loopback port (or BENCH_URL's app). */
export async function startServer(): Promise<{ url: string; stop: () => void; pid?: number }> {
  if (process.env.BENCH_URL) return { url: process.env.BENCH_URL, stop: () => undefined };
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const build = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"], env });
  if (build.status !== 0) throw new Error("npm run build failed");
  const port = await freePort();
  return startDetached(["scripts/serve.mjs", "--host", "127.0.0.1", "--port", String(port)], { env, url: `http://127.0.0.1:${port}` });
}

/**
 * Starts `args` under this Node, detached (its own process group, which `stop` ends whole), so it
 * ends with the bench however the bench ends (./reap.ts); resolves once `url` answers.
 */
export async function startDetached(
  args: string[],
  options: { env: NodeJS.ProcessEnv; url: string; cwd?: string },
): Promise<{ url: string; stop: () => void; pid?: number }> {
  const { env, url, cwd } = options;
  const child = spawn(process.execPath, args, { stdio: "ignore", env, detached: true, ...(cwd ? { cwd } : {}) });
  const forget = endWithThisProcess(() => killGroup(child.pid));
  const stop = () => {
    forget();
    killGroup(child.pid);
  };
  try {
    await waitForServer(url, child, 60_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop, ...(child.pid ? { pid: child.pid } : {}) };
}

/** Sandbox figures measured in headless Chromium against the production build. */
export async function benchSandboxBrowser(): Promise<BenchRow[]> {
  const server = await startServer();
  // Precise memory info: without it Chromium quantises performance.memory, and the heap figure means nothing.
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, "--enable-precise-memory-info"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/bench`);
    await page.getByRole("button", { name: "Run sandbox benchmarks" }).click();
    const json = page.getByTestId("bench-json");
    const failed = page.getByRole("status", { name: "Benchmark status" }).filter({ hasText: "failed" });
    await Promise.race([json.waitFor({ timeout: 300_000 }), failed.waitFor({ timeout: 300_000 })]);
    if (await failed.isVisible()) throw new Error(`the bench page failed: ${await page.locator(".error-box").textContent()}`);
    const rows = JSON.parse((await json.textContent()) ?? "[]") as BenchRow[];
    // The waterfall with 10 000 calls, in the same page: first paint and heap (issue 6's report).
    const samples: Array<{ firstPaintMs: number; rowsInDom: number; heapDeltaMb?: number; buildMs: number }> = [];
    for (let i = 0; i < 5; i++) {
      await page.getByRole("button", { name: "Run timeline benchmark" }).click();
      const figures = page.getByTestId("timeline-bench-json");
      await figures.waitFor({ timeout: 60_000 });
      samples.push(JSON.parse((await figures.textContent()) ?? "{}") as (typeof samples)[number]);
    }
    rows.push({
      name: "timeline, 10 000 calls: render to first paint",
      median: median(samples.map((s) => s.firstPaintMs)),
      unit: "ms",
      note: `5 renders; synthetic run built in ${median(samples.map((s) => s.buildMs)).toFixed(0)} ms of that; ${samples[0]?.rowsInDom ?? "?"} rows in the DOM`,
    });
    const heaps = samples.map((s) => s.heapDeltaMb).filter((x): x is number => typeof x === "number");
    if (heaps.length > 0)
      rows.push({
        name: "timeline, 10 000 calls: JS heap added",
        median: median(heaps),
        unit: "MB",
        note: "performance.memory (Chromium), before → after first paint",
      });
    const ours = {
      run: rows.find((r) => r.name.startsWith("run overhead"))?.median,
      call: rows.find((r) => r.name.startsWith("host call, 10 000"))?.median,
    };
    rows.push(...(await benchCloudflarePeer(browser, server.url, ours)));
    return rows;
  } finally {
    await browser.close();
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printRows } = await import("./rows");
  printRows(await benchSandboxBrowser());
}
