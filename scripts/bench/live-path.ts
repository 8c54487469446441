// The live path as a person feels it, in Chromium against the production build: how long the
// page takes to be ready to run (and how much JavaScript it fetched first), and tool calls from
// a program run in the page to a built-in demo server (sandbox worker → page → MCP over HTTP →
// the demo route → back), with the worst frame while they stream and how far the timeline lags.
import { chromium, type Browser, type Page } from "@playwright/test";
import { chromiumPath, CHROMIUM_ARGS } from "../../tests/e2e/chromium";
import { median, type BenchRow } from "./rows";
import { startServer } from "./sandbox-browser";
import { connectToServer } from "../../lib/mcp/connection";
import { getDemoServer } from "../../lib/mcp/demo/index";
import { startDemoHost } from "../../lib/mcp/node/demo-host";

const LOADS = 5;
const RUNS = 3;

/** Records, in the page, when the sandbox is ready, the longest frames, and when texts change. */
const PROBE = `(() => {
  const probe = (window.__probe = { readyAt: undefined, frames: [], marks: [] });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) probe.frames.push({ at: e.startTime, ms: e.duration }); })
    .observe({ type: "long-animation-frame", buffered: true });
  const look = () => {
    const state = document.querySelector('[data-testid="sandbox-state"]');
    if (probe.readyAt === undefined && state && state.textContent === "sandbox ready") probe.readyAt = performance.now();
    const summary = document.querySelector('[aria-label="Timeline summary"]');
    const status = document.querySelector('[data-testid="run-status"]');
    probe.marks.push({ at: performance.now(), summary: summary ? summary.textContent : "", status: status ? status.textContent : "" });
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
})()`;

interface Probe {
  readyAt?: number;
  frames: Array<{ at: number; ms: number }>;
  marks: Array<{ at: number; summary: string; status: string }>;
}

async function pageReady(browser: Browser, url: string): Promise<{ readyMs: number; jsBytes: number; jsRequests: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const finished: Array<{ at: number; bytes: number }> = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script" && !request.url().endsWith(".js")) return;
    const at = Date.now();
    void request
      .response()
      .then((response) => response?.body())
      .then((body) => finished.push({ at, bytes: body?.length ?? 0 }))
      .catch(() => undefined);
  });
  const started = Date.now();
  await page.goto(url);
  await page.getByTestId("sandbox-state").filter({ hasText: "sandbox ready" }).waitFor({ timeout: 60_000 });
  const probe = await page.evaluate<Probe>(() => (window as unknown as { __probe: Probe }).__probe);
  const readyMs = probe.readyAt ?? Number.NaN;
  await page.waitForTimeout(200);
  const readyWall = started + readyMs;
  const before = finished.filter((f) => f.at <= readyWall + 50);
  await context.close();
  return { readyMs, jsBytes: before.reduce((n, f) => n + f.bytes, 0), jsRequests: before.length };
}

async function pasteAndRun(page: Page, code: string): Promise<void> {
  await page.evaluate((text) => navigator.clipboard.writeText(text), code);
  const lines = page.getByRole("region", { name: "Editor" }).locator(".monaco-editor .view-lines");
  await lines.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("ControlOrMeta+V");
  await lines.filter({ hasText: code.split("\n")[0] ?? "" }).waitFor();
  await page.evaluate(() => {
    (window as unknown as { __probe: Probe }).__probe.frames.length = 0;
    (window as unknown as { __probe: Probe }).__probe.marks.length = 0;
  });
  await page.keyboard.press("ControlOrMeta+Enter");
}

interface LiveRun {
  wallMs: number;
  worstFrameMs: number;
  timelineLagMs: number;
}

/** Runs `code` in the page and reads the run's wall time, the worst frame and the timeline's lag behind the run's end. */
async function liveRun(page: Page, code: string, calls: number): Promise<LiveRun> {
  const started = await page.evaluate(() => performance.now());
  await pasteAndRun(page, code);
  const status = page.getByTestId("run-status");
  await status.filter({ hasText: /^ok/ }).waitFor({ timeout: 120_000 });
  await page
    .locator('[aria-label="Timeline summary"]')
    .filter({ hasText: `ok ${calls}` })
    .waitFor({ timeout: 30_000 });
  const probe = await page.evaluate<Probe>(() => (window as unknown as { __probe: Probe }).__probe);
  // The status still reads the last run's "ok" until this run starts: look for "ok" after "running".
  const startIndex = probe.marks.findIndex((m) => /running/i.test(m.status));
  const after = probe.marks.slice(Math.max(0, startIndex));
  const runStarted = probe.marks[startIndex]?.at ?? started;
  const runEnded = after.find((m) => /^ok/.test(m.status))?.at ?? Number.NaN;
  const timelineDone = after.find((m) => m.summary.includes(`ok ${calls}`))?.at ?? Number.NaN;
  return {
    wallMs: runEnded - runStarted,
    worstFrameMs: Math.max(0, ...probe.frames.filter((f) => f.at >= runStarted && f.at <= runEnded).map((f) => f.ms)),
    timelineLagMs: Math.max(0, timelineDone - runEnded),
  };
}

/**
 * The floor under the page's live calls: the same 1 000 tools/call requests to the same route,
 * 10 in flight, made with bare fetch from the page (no SDK, no sandbox, no React). A string, so
 * the bundler's helpers never reach the page.
 */
const RAW_FETCH = `(async () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "m" } } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next < 1000) {
      next++;
      const response = await fetch("/api/demo-mcp/lab", { method: "POST", headers, body });
      await response.text();
    }
  }));
  return performance.now() - start;
})()`;

/** The floor under one sequential call: 100 awaited bare fetches of the same tools/call, per request. */
const RAW_SEQUENTIAL = `(async () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "m" } } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const start = performance.now();
  for (let i = 0; i < 100; i++) await (await fetch("/api/demo-mcp/lab", { method: "POST", headers, body })).text();
  return (performance.now() - start) / 100;
})()`;

const PARALLEL = (n: number) =>
  `const xs = [];\nfor (let i = 0; i < ${n}; i++) xs.push(lab.echo({ message: "m" + i }));\nreturn (await Promise.all(xs)).length;`;
// Returns the time per call as the program itself sees it (no run start or end in it).
const SEQUENTIAL = (n: number) =>
  `const started = Date.now();\nfor (let i = 0; i < ${n}; i++) await lab.echo({ message: "m" });\nreturn (Date.now() - started) / ${n};`;

/**
 * What an event stream costs a client over one JSON body, for the same call: the app's MCP
 * client (lib/mcp/connection.ts) in Node, sequential lab.echo calls to the demo handler on loopback (no Next, no browser),
 * answered one way then the other, interleaved. The lab server streams only the calls that send
 * progress (lib/mcp/demo/catalog.ts); here echo is made to stream for the comparison.
 */
async function responseModes(): Promise<BenchRow[]> {
  const lab = getDemoServer("lab");
  if (!lab) throw new Error("no lab demo server");
  const kept = lab.responseMode;
  const host = await startDemoHost();
  const config = { id: "lab", name: "lab", transport: "streamable-http" as const, url: host.urlFor("lab"), headers: {}, enabled: true };
  const client = await connectToServer(config, { baseUrl: host.url, proxyUrl: "/api/mcp/proxy" });
  try {
    const perCall = async (mode: typeof kept) => {
      Object.assign(lab, { responseMode: mode });
      const started = performance.now();
      for (let i = 0; i < 300; i++) await client.callTool("echo", { message: "m" });
      return (performance.now() - started) / 300;
    };
    const json: number[] = [];
    const stream: number[] = [];
    for (let i = 0; i < 7; i++) {
      json.push(await perCall({ sse: [] }));
      stream.push(await perCall({ sse: ["echo"] }));
    }
    return [
      {
        name: "demo route in Node: one sequential lab.echo, JSON body",
        median: median(json),
        unit: "ms",
        note: `the app's client, loopback, no Next; answered as an event stream: ${median(stream).toFixed(3)} ms (${(median(stream) / median(json)).toFixed(2)}×); 7 × 300 calls each, interleaved`,
      },
    ];
  } finally {
    Object.assign(lab, { responseMode: kept });
    await client.close();
    await host.close();
  }
}

/** Page readiness and live tool calls in Chromium against the production build. */
export async function benchLivePath(): Promise<BenchRow[]> {
  const modes = await responseModes();
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const loads = [];
    for (let i = 0; i < LOADS; i++) loads.push(await pageReady(browser, server.url));
    const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    await page.goto(server.url);
    await page.getByTestId("sandbox-state").filter({ hasText: "sandbox ready" }).waitFor({ timeout: 60_000 });
    // Let the demo servers connect and the page settle before the first run.
    await page.waitForTimeout(1_500);
    // The timeline on screen while calls stream in, as a person debugging would have it.
    await page
      .getByRole("tab", { name: /^Timeline/ })
      .first()
      .click();
    await liveRun(page, PARALLEL(50), 50);
    const parallel: LiveRun[] = [];
    for (let i = 0; i < RUNS; i++) parallel.push(await liveRun(page, PARALLEL(1000), 1000));
    const sequential: LiveRun[] = [];
    const inProgram: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      sequential.push(await liveRun(page, SEQUENTIAL(100), 100));
      // The value is on the Output tab; the timeline goes back on screen for the next run.
      await page
        .getByRole("tab", { name: /^Output/ })
        .first()
        .click();
      inProgram.push(Number(await page.getByTestId("run-value").textContent()));
      await page
        .getByRole("tab", { name: /^Timeline/ })
        .first()
        .click();
    }
    const raw: number[] = [];
    const rawSequential: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(await page.evaluate<number>(RAW_FETCH));
      rawSequential.push(await page.evaluate<number>(RAW_SEQUENTIAL));
    }
    // Does the page still answer while a program spins? Asked from outside, as with the peer's iframe.
    await pasteAndRun(page, "while (true) {}");
    await page
      .getByTestId("run-status")
      .filter({ hasText: /running/i })
      .waitFor();
    await page.waitForTimeout(300);
    const answered = await Promise.race([page.evaluate(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_500))]);
    await page.getByRole("region", { name: "Editor" }).getByRole("button", { name: "Stop" }).click();
    await context.close();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return [
      {
        name: "page: navigation to “sandbox ready”, fresh context",
        median: median(loads.map((l) => l.readyMs)),
        unit: "ms",
        note: `${LOADS} loads; goal ≤ 800 ms`,
      },
      {
        name: "page: JavaScript fetched before ready",
        median: mb(median(loads.map((l) => l.jsBytes))),
        unit: "MB",
        note: `uncompressed bodies, ${median(loads.map((l) => l.jsRequests))} requests; goal ≤ 4 MB`,
      },
      {
        name: "live: 1 000 parallel lab.echo calls from one program",
        median: median(parallel.map((r) => r.wallMs)),
        unit: "ms",
        note: `${RUNS} runs; goal ≤ 2 000 ms`,
      },
      {
        name: "live: the floor, 1 000 bare fetches of the same route from the page",
        median: median(raw),
        unit: "ms",
        note: "10 in flight, no SDK, sandbox or React: what Chromium and the route cost",
      },
      {
        name: "live: worst frame while they stream",
        median: median(parallel.map((r) => r.worstFrameMs)),
        unit: "ms",
        note: "long-animation-frame entries, which Chromium reports only over 50 ms (0: none); goal ≤ 50 ms",
      },
      { name: "live: timeline complete after the run's value", median: median(parallel.map((r) => r.timelineLagMs)), unit: "ms", note: "goal ≤ 100 ms" },
      {
        name: "live: one sequential lab.echo call, end to end",
        median: median(sequential.map((r) => r.wallMs / 100)),
        unit: "ms",
        note: `100 awaited calls, ${RUNS} runs, from the run's start to its value ÷ 100; goal ≤ 5 ms`,
      },
      {
        name: "live: one sequential lab.echo call, as the program times it",
        median: median(inProgram),
        unit: "ms",
        note: `Date.now() around the 100 awaited calls inside the sandbox; ${(median(inProgram) / median(rawSequential)).toFixed(2)}× the floor below`,
      },
      {
        name: "live: the floor for one sequential call, a bare fetch of the same route from the page",
        median: median(rawSequential),
        unit: "ms",
        note: "100 awaited requests: what Chromium and the route cost before any of our code",
      },
      { name: "page answers during `while (true) {}`", value: answered ? 1 : 0, unit: answered ? "(yes)" : "(no)", note: "the sandbox runs in a worker" },
      ...modes,
    ];
  } finally {
    await browser.close();
    server.stop();
  }
}
