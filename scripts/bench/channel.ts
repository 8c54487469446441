// The page's channel to the app (docs/channel.md, "The channel") against the page's plain
// HTTP path (`?channel=off`) and the floor of the same run (bare fetches of the same route from
// the same page), in the bare Chromium against the production build with a person's set of
// servers: the demo servers, eight stdio server-everything processes and four over Streamable
// HTTP. Runs alternate between the two pages, so both see the same machine.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { median, type BenchRow } from "./rows";
import { startServer } from "./sandbox-browser";
import { launchBareChromium, type BareBrowser, type BarePage } from "./bare-chromium";
import { openEditor, PROBE, RAW_FETCH, RAW_SEQUENTIAL, READY, STATUS, typeAndRun, until } from "./live-path";
import { createLimitsStore, type LimitOverrides } from "../../lib/editor/limits-store";
import { createRegistryStorage } from "../../lib/mcp/registry-storage";
import { ServerRegistry } from "../../lib/mcp/registry";
import type { ServerInput } from "../../lib/mcp/server-input";
import { EVERYTHING_BIN, startEverythingHttp, type EverythingHttp } from "../../tests/fixtures/mcp/everything";

const ROUNDS = 5;
const STDIO_NAMES = ["ev1", "ev2", "ev3", "ev4", "ev5", "ev6", "ev7", "ev8"];
const HTTP_NAMES = ["web1", "web2", "web3", "web4"];

/** The localStorage entries of a registry holding the demo servers and `inputs` (and run limits), as the page writes them. */
function registryEntries(inputs: ServerInput[], limits: LimitOverrides = {}): Record<string, string> {
  const stored = new Map<string, string>();
  const storage = {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  };
  const registry = new ServerRegistry({ storage: createRegistryStorage(storage) });
  for (const input of inputs) {
    const added = registry.add(input);
    if (!added.ok) throw new Error(`bench registry: ${JSON.stringify(added.issues)}`);
  }
  createLimitsStore(storage).save(limits);
  return Object.fromEntries(stored);
}

const ALL_CONNECTED = (count: number) =>
  `(() => { const s = [...document.querySelectorAll('[data-testid^="server-status-"]')]; return s.length === ${count} && s.every((e) => e.textContent === "connected"); })()`;

mkdirSync("test-results", { recursive: true });

/** A fresh page with these servers stored, reloaded, and every server connected. */
async function openWithServers(browser: BareBrowser, url: string, entries: Record<string, string>, servers: number): Promise<BarePage> {
  const page = await browser.newPage();
  await page.addInitScript(PROBE);
  await page.navigate(url);
  await page.evaluate(until(READY, 60_000), 65_000);
  await page.evaluate(`(() => { const e = ${JSON.stringify(entries)}; for (const [k, v] of Object.entries(e)) localStorage.setItem(k, v); return true; })()`);
  await page.navigate(url.replace(/#.*$/, ""));
  await page.evaluate(until(READY, 60_000), 65_000);
  await page.evaluate(until(ALL_CONNECTED(servers), 90_000), 95_000);
  await openEditor(page);
  await page.evaluate("new Promise((resolve) => setTimeout(() => resolve(true), 1000))");
  return page;
}

/** Runs a one-line program and returns its value's text. */
async function runValue(page: BarePage, code: string): Promise<string> {
  // Two pages share the browser: a page in the background gets no animation frames, and Monaco draws in them.
  await page.command("Page.bringToFront");
  try {
    await typeAndRun(page, code);
  } catch (error) {
    const shot = (await page.command("Page.captureScreenshot", { format: "png" })) as { data: string };
    writeFileSync("test-results/bench-channel-failure.png", Buffer.from(shot.data, "base64"));
    throw error;
  }
  await page.evaluate(until(`window.__probe.marks.some((m) => /running/i.test(m.status)) && !/running/.test(${STATUS})`, 120_000), 125_000);
  const status = await page.evaluate<string>(STATUS);
  if (!/^ok/.test(status))
    throw new Error(
      `${code.slice(0, 60)}…: ${status} ${await page.evaluate<string>(`document.querySelector('[data-testid="run-error"]')?.textContent ?? ""`)}`,
    );
  return page.evaluate<string>(`document.querySelector('[data-testid="run-value"]').textContent`);
}

const timed = (body: string) => `const t0 = Date.now(); ${body} return Date.now() - t0;`;
const LONG = (names: string[]) => timed(`await Promise.all([${names.join(", ")}].map((ns) => ns.trigger_long_running_operation({ duration: 2, steps: 2 })));`);
const PARALLEL = timed(`const xs = []; for (let i = 0; i < 1000; i++) xs.push(lab.echo({ message: "m" + i })); await Promise.all(xs);`);
const SEQUENTIAL = `const t0 = Date.now(); for (let i = 0; i < 100; i++) await lab.echo({ message: "m" }); return (Date.now() - t0) / 100;`;
const STDIO_SEQUENTIAL = `const t0 = Date.now(); for (let i = 0; i < 50; i++) await ev1.echo({ message: "m" }); return (Date.now() - t0) / 50;`;

/** CPU seconds (user + system) and resident MB of a process, from /proc (Linux). */
function processUsage(pid: number): { cpuS: number; rssMb: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return { cpuS: ticks / 100, rssMb: Number(rss) / 1024 };
  } catch {
    return undefined;
  }
}

/** The page's main-thread task time and JS heap, from the DevTools Performance domain. */
async function pageUsage(page: BarePage): Promise<{ taskS: number; heapMb: number }> {
  const { metrics } = (await page.command("Performance.getMetrics")) as { metrics: Array<{ name: string; value: number }> };
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return { taskS: get("TaskDuration"), heapMb: get("JSHeapUsedSize") / 1024 / 1024 };
}

/** The channel against the page's plain HTTP path and the floor, with twelve servers and then fifty. */
export async function benchChannel(): Promise<BenchRow[]> {
  // BENCH_URL (a server already running) comes with the token it was started with.
  const token = (process.env.CMP_LOCAL_TOKEN?.length ?? 0) >= 32 ? (process.env.CMP_LOCAL_TOKEN as string) : randomBytes(32).toString("base64url");
  process.env.CMP_LOCAL_TOKEN = token;
  process.env.CMP_STDIO_MAX_SESSIONS ??= "64";
  const everything: EverythingHttp[] = await Promise.all(HTTP_NAMES.map(() => startEverythingHttp()));
  const server = await startServer();
  let browser: BareBrowser | undefined;
  try {
    const stdio: ServerInput[] = STDIO_NAMES.map((name) => ({ name, transport: "stdio", command: process.execPath, args: [EVERYTHING_BIN, "stdio"] }));
    const http: ServerInput[] = HTTP_NAMES.map((name, i) => ({ name, transport: "streamable-http", url: everything[i]?.url ?? "" }));
    browser = await launchBareChromium();
    const channelUrl = `${server.url}/#cmp-token=${token}`;
    const plainUrl = `${server.url}/?channel=off#cmp-token=${token}`;

    // The demo servers only: the page's path for one call and for 1 000, each way, and the floor.
    const demoOnly = registryEntries([]);
    const pages = { channel: await openWithServers(browser, channelUrl, demoOnly, 4), plain: await openWithServers(browser, plainUrl, demoOnly, 4) };
    const seq = { channel: [] as number[], plain: [] as number[] };
    const par = { channel: [] as number[], plain: [] as number[] };
    const floor = { seq: [] as number[], par: [] as number[] };
    for (const page of Object.values(pages)) await runValue(page, PARALLEL);
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of ["channel", "plain"] as const) {
        seq[which].push(Number(await runValue(pages[which], SEQUENTIAL)));
        par[which].push(Number(await runValue(pages[which], PARALLEL)));
      }
      floor.seq.push(await pages.channel.evaluate<number>(RAW_SEQUENTIAL));
      floor.par.push(await pages.channel.evaluate<number>(RAW_FETCH));
    }
    await pages.channel.close();
    await pages.plain.close();

    // Three stdio servers and one through the proxy (what a new user tripped over), each way.
    const few = registryEntries([...stdio.slice(0, 3), ...http.slice(0, 1)]);
    const fewPages = { channel: await openWithServers(browser, channelUrl, few, 8), plain: await openWithServers(browser, plainUrl, few, 8) };
    const stdioSeq = { channel: [] as number[], plain: [] as number[] };
    const fourWall = { channel: [] as number[], plain: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of ["channel", "plain"] as const) {
        stdioSeq[which].push(Number(await runValue(fewPages[which], STDIO_SEQUENTIAL)));
        fourWall[which].push(Number(await runValue(fewPages[which], LONG(["ev1", "ev2", "ev3", "web1"]))));
      }
    }
    await fewPages.channel.close();
    await fewPages.plain.close();

    // Twelve servers: through the channel (plain HTTP does not get them all connected: see the note).
    // Twelve calls at once need more than the default 10 in flight.
    const twelve = registryEntries([...stdio, ...http], { maxConcurrency: 16 });
    const twelvePage = await openWithServers(browser, channelUrl, twelve, 16);
    const oneWall: number[] = [];
    const twelveWall: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      oneWall.push(Number(await runValue(twelvePage, LONG(["ev1"]))));
      twelveWall.push(Number(await runValue(twelvePage, LONG([...STDIO_NAMES, ...HTTP_NAMES]))));
    }
    const plainTwelveWall: number[] = [];
    const plainTwelve = await openWithServers(browser, plainUrl, twelve, 16).then(
      async (page) => {
        for (let round = 0; round < ROUNDS; round++) plainTwelveWall.push(Number(await runValue(page, LONG([...STDIO_NAMES, ...HTTP_NAMES]))));
        await page.close();
        return `${median(plainTwelveWall).toFixed(0)} ms`;
      },
      (error: unknown) => (error instanceof Error && error.message.includes("timed out") ? "did not get all 16 servers connected within 90 s" : String(error)),
    );
    await twelvePage.close();

    // Fifty servers, idle: the twelve, the demo servers and 34 more demo aliases.
    const aliases: ServerInput[] = Array.from({ length: 34 }, (_, i) => ({
      name: `lab${String(i + 1).padStart(2, "0")}`,
      transport: "streamable-http",
      url: `${server.url}/api/demo-mcp/lab`,
    }));
    const fifty = await openWithServers(browser, `${server.url}/#cmp-token=${token}`, registryEntries([...stdio, ...http, ...aliases]), 50);
    await fifty.command("Performance.enable");
    await fifty.evaluate("new Promise((resolve) => setTimeout(() => resolve(true), 3000))");
    const pageBefore = await pageUsage(fifty);
    const serverBefore = server.pid ? processUsage(server.pid) : undefined;
    const idleS = 10;
    await fifty.evaluate(`new Promise((resolve) => setTimeout(() => resolve(true), ${idleS * 1000}))`, (idleS + 5) * 1000);
    const pageAfter = await pageUsage(fifty);
    const serverAfter = server.pid ? processUsage(server.pid) : undefined;
    await fifty.close();

    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
    const vsPlain = (set: { channel: number[]; plain: number[] }, digits = 2) =>
      `plain HTTP: ${median(set.plain).toFixed(digits)} ms (the channel ${ratio(set.channel, set.plain)}× that)`;
    return [
      {
        name: "channel: one sequential lab.echo, as the program times it",
        median: median(seq.channel),
        unit: "ms",
        note: `${vsPlain(seq)}; floor (bare fetch from the page): ${median(floor.seq).toFixed(2)} ms (${ratio(seq.channel, floor.seq)}×); ${ROUNDS} × 100 calls`,
      },
      {
        name: "channel: 1 000 parallel lab.echo, as the program times it",
        median: median(par.channel),
        unit: "ms",
        note: `${vsPlain(par, 0)}; floor (1 000 bare fetches, 10 in flight): ${median(floor.par).toFixed(0)} ms (${ratio(par.channel, floor.par)}×, goal ≤ 1×)`,
      },
      {
        name: "channel: one sequential call to a stdio server (server-everything echo)",
        median: median(stdioSeq.channel),
        unit: "ms",
        note: `${vsPlain(stdioSeq)}; ${ROUNDS} × 50 calls`,
      },
      {
        name: "channel: 3 stdio servers + 1 through the proxy, a 2-second call on each at once",
        median: median(fourWall.channel),
        unit: "ms",
        note: `${vsPlain(fourWall, 0)}`,
      },
      {
        name: "channel: 12 servers (8 stdio, 4 HTTP) × a 2-second call, in parallel",
        median: median(twelveWall),
        unit: "ms",
        note: `one such call alone: ${median(oneWall).toFixed(0)} ms (${ratio(twelveWall, oneWall)}×, goal ≤ 1.2×); 16 calls in flight allowed (default 10); plain HTTP: ${plainTwelve}`,
      },
      {
        name: "channel: 50 connected servers, idle: page main-thread time",
        value: ((pageAfter.taskS - pageBefore.taskS) / idleS) * 1000,
        unit: "ms/s",
        note: `JS heap ${pageAfter.heapMb.toFixed(1)} MB; over ${idleS} s`,
      },
      {
        name: "channel: 50 connected servers, idle: app server CPU",
        value: serverBefore && serverAfter ? ((serverAfter.cpuS - serverBefore.cpuS) / idleS) * 1000 : Number.NaN,
        unit: "ms/s",
        note: serverAfter
          ? `resident ${serverAfter.rssMb.toFixed(0)} MB (the server process; its 8 stdio children apart); over ${idleS} s`
          : "no process figures here",
      },
    ];
  } finally {
    await browser?.close();
    server.stop();
    await Promise.all(everything.map((e) => e.close()));
  }
}
