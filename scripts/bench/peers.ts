// The playground's first load against its peers' (issue 32), measured in one run: the MCP
// Inspector and MCPJam, installed at pinned versions into the bench's own folder (outside the
// project's dependencies: about 1.3 GB the suite does not need), started on loopback with
// browser-opening off, and loaded interleaved with the playground, each load in a fresh
// context of the bare browser (bare-chromium.ts). For each app: the time until a person can
// use it, what its main thread did until then (a sampling profile), and the main thread's long
// tasks after that. The stack's floor (app/bench/floor: Next and React hydrating one button,
// from the playground's own server) loads with them, so the ratios say what is the playground's
// own. Nothing here reaches the internet: MCPJam's sign-in and telemetry calls fail as they
// would offline.
//
//   npm run bench -- --only peers
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tests/fixtures/free-port";
import { launchBareChromium, type BareBrowser } from "./bare-chromium";
import { median, type BenchRow } from "./rows";
import { startDetached, startServer } from "./sandbox-browser";
import { until } from "./live-path";
import { mainThreadByKind, type CpuProfile, type MainThread } from "../../lib/bench/cpu-profile";

export const INSPECTOR = { name: "@modelcontextprotocol/inspector", version: "2.12.0" };
export const MCPJAM = { name: "@mcpjam/inspector", version: "1.0.24" };
/** Interleaved fresh loads of each app; a run's medians move by tens of ms between runs on this machine (docs/benchmarks.md). */
const LOADS = 11;
/**
 * Loads with an early click. Whether a click lands inside one of the start's long tasks or
 * between them decides its figure (docs/benchmarks.md), so it takes more loads than the rest.
 */
const CLICK_LOADS = 15;
/** Loads of each app under the sampling profiler (mainThreadByKind). */
const PROFILED_LOADS = 3;
/** Long tasks are watched this long after an app is usable. */
const AFTER_MS = 3_000;
const DIR = path.join(homedir(), ".cache", "code-mode-playground", "bench-peers");

/** Installs the peers into the bench's folder once (npm's registry is the only network it needs). */
function installPeers(): void {
  const installed = (pkg: { name: string; version: string }) => {
    const file = path.join(DIR, "node_modules", pkg.name, "package.json");
    return (
      existsSync(file) &&
      (JSON.parse(spawnSync(process.execPath, ["-p", `JSON.stringify(require(${JSON.stringify(file)}).version)`]).stdout.toString()) as string) === pkg.version
    );
  };
  if (installed(INSPECTOR) && installed(MCPJAM)) return;
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(path.join(DIR, "package.json"))) writeFileSync(path.join(DIR, "package.json"), '{ "name": "bench-peers", "private": true }\n');
  process.stderr.write(`Installing ${INSPECTOR.name}@${INSPECTOR.version} and ${MCPJAM.name}@${MCPJAM.version} into ${DIR} (once)…\n`);
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", `${INSPECTOR.name}@${INSPECTOR.version}`, `${MCPJAM.name}@${MCPJAM.version}`], {
    cwd: DIR,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("npm install of the peers failed");
}

export interface Started {
  url: string;
  /** Ends its process group (and no longer at the bench's exit: ./reap.ts). */
  stop: () => void;
}

function start(command: string[], env: Record<string, string>, cwd: string, url: string): Promise<Started> {
  return startDetached(command, { env: { ...process.env, ...env }, cwd, url });
}

/** The MCP Inspector's web UI, auth off (loopback only), no browser opened, its storage in a scratch home; installed in `dir`. */
export async function startInspector(dir = DIR): Promise<Started> {
  const [client, server] = [await freePort(), await freePort()];
  const home = mkdtempSync(path.join(tmpdir(), "cmp-inspector-"));
  const launcher = path.join(dir, "node_modules", INSPECTOR.name, "clients", "launcher", "build", "index.js");
  return start(
    [launcher],
    { HOME: home, CLIENT_PORT: String(client), SERVER_PORT: String(server), MCP_AUTO_OPEN_ENABLED: "false", DANGEROUSLY_OMIT_AUTH: "true" },
    dir,
    `http://127.0.0.1:${client}/`,
  );
}

/** MCPJam's production server, started as its launcher starts it, without the launcher's browser-opening; installed in `dir`. */
export async function startMcpJam(dir = DIR): Promise<Started> {
  const port = await freePort();
  const root = path.join(dir, "node_modules", MCPJAM.name);
  return start(["dist/server/index.js"], { NODE_ENV: "production", PORT: String(port) }, root, `http://127.0.0.1:${port}/`);
}

/** An enabled button whose text is exactly `text`. */
export const button = (text: string) => `[...document.querySelectorAll("button")].some((b) => b.textContent.trim() === ${JSON.stringify(text)} && !b.disabled)`;

/**
 * In the page: when it becomes usable (checked on every DOM change), every long task, and for
 * MCPJam the click a guest makes on "Or continue as guest" as soon as it shows.
 */
export const probe = (usable: string, guestClick: boolean) => `(() => {
  const probe = (window.__peer = { usableAt: undefined, tasks: [] });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) probe.tasks.push({ at: e.startTime, ms: e.duration }); })
    .observe({ type: "longtask", buffered: true });
  const look = () => {
    ${guestClick ? `const guest = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Or continue as guest"); if (guest && !probe.guestAt) { probe.guestAt = performance.now(); guest.click(); }` : ""}
    try { if (probe.usableAt === undefined && (${usable})) probe.usableAt = performance.now(); } catch {}
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

interface App {
  name: string;
  url: string;
  usable: string;
  what: string;
  /** The playground itself, the stack's floor under it (app/bench/floor), or a peer. */
  kind: "ours" | "before" | "floor" | "peer";
  guestClick?: boolean;
}

interface Load {
  usableMs: number;
  /** First contentful paint: when the page first shows something (ms from navigation). */
  firstPaintMs: number;
  /** The playground's start phases (User Timing marks, START_MARKS) and the document's, ms from navigation. */
  phases: Record<string, number>;
  /** Long-task time in the 2 s after usable, and the longest task then. */
  busyMs: number;
  longestMs: number;
  /** When the first second with no long task starts (ms from navigation). */
  quietAt: number;
  /** The page's JavaScript files fetched before usable, and their size as the browser compiles them (decoded). */
  scripts: { files: number; bytes: number };
}

/**
 * One load under V8's sampling profiler (every 250 µs, which slows the page a little: these
 * figures are not the usable time above). The profile stops just after usable; the page's clock
 * at the stop places usable in the profile's own clock.
 */
async function profiledLoad(browser: BareBrowser, app: App): Promise<MainThread> {
  const page = await browser.newPage();
  try {
    await page.addInitScript(probe(app.usable, app.guestClick === true));
    await page.command("Profiler.enable");
    await page.command("Profiler.setSamplingInterval", { interval: 250 });
    await page.command("Profiler.start");
    await page.navigate(app.url);
    await page.evaluate(until(`window.__peer.usableAt !== undefined`, 60_000), 65_000);
    const { usableAt, now } = await page.evaluate<{ usableAt: number; now: number }>("({ usableAt: window.__peer.usableAt, now: performance.now() })");
    const { profile } = (await page.command("Profiler.stop")) as unknown as { profile: CpuProfile };
    return mainThreadByKind(profile, profile.endTime - (now - usableAt) * 1000);
  } finally {
    await page.close();
  }
}

/** The first moment at or after `from` followed by 1 000 ms without a long task. */
function firstQuietSecond(tasks: ReadonlyArray<{ at: number; ms: number }>, from: number): number {
  let at = from;
  for (const task of [...tasks].sort((a, b) => a.at - b.at)) {
    if (task.at + task.ms <= at) continue;
    if (task.at >= at + 1_000) break;
    at = task.at + task.ms;
  }
  return at;
}

async function load(browser: BareBrowser, app: App): Promise<Load> {
  const page = await browser.newPage();
  try {
    await page.addInitScript(probe(app.usable, app.guestClick === true));
    await page.navigate(app.url);
    await page.evaluate(until(`window.__peer.usableAt !== undefined`, 60_000), 65_000);
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
    const { usableAt, tasks } = await page.evaluate<{ usableAt: number; tasks: Array<{ at: number; ms: number }> }>("window.__peer");
    const after = tasks.filter((t) => t.at + t.ms > usableAt && t.at < usableAt + 2_000);
    const phases = await page.evaluate<Record<string, number>>(`(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const out = { "HTML received": nav.responseEnd, "DOMContentLoaded": nav.domContentLoadedEventEnd };
      for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("cmp:")) out[m.name] = m.startTime;
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      if (paint) out["first paint"] = paint.startTime;
      // Next's chunks the page asked for before its state was built: its first load (later ones,
      // such as the MCP client's, start after it).
      const built = out["cmp:page-state"];
      const chunk = (e) => { const path = new URL(e.name).pathname; return path.startsWith("/_next/static/chunks/") && path.endsWith(".js"); };
      const firstLoad = performance.getEntriesByType("resource").filter((e) => chunk(e) && e.startTime < built);
      if (firstLoad.length > 0) out["first-load scripts received"] = Math.max(...firstLoad.map((e) => e.responseEnd));
      return out;
    })()`);
    const firstPaintMs = phases["first paint"] ?? NaN;
    const scripts = await page.evaluate<{ files: number; bytes: number }>(`(() => {
      const js = performance.getEntriesByType("resource").filter((e) => e.startTime < ${usableAt} && /\\.m?js$/.test(new URL(e.name).pathname));
      return { files: js.length, bytes: js.reduce((n, e) => n + e.decodedBodySize, 0) };
    })()`);
    return {
      usableMs: usableAt,
      firstPaintMs,
      phases,
      busyMs: after.reduce((n, t) => n + t.ms, 0),
      longestMs: Math.max(0, ...after.map((t) => t.ms)),
      quietAt: firstQuietSecond(tasks, usableAt),
      scripts,
    };
  } finally {
    await page.close();
  }
}

/** The example prompt a person clicks the moment it shows. */
const EARLY_PROMPT = "Which carrier is cheapest to ship 2 kg from DE to US within 5 days?";

/**
 * A person clicking an example prompt the moment it shows, while the page still loads: how long
 * from the click until the conversation shows the prompt (the page's answer to the click), and
 * whether the click came before hydration (lib/playground/browser/early-clicks.ts replays it).
 */
async function clickDuringLoad(browser: BareBrowser, url: string): Promise<{ clickAt: number; takenMs: number; answeredMs: number; beforeHydration: boolean }> {
  const page = await browser.newPage();
  try {
    await page.addInitScript(`(() => {
      const probe = (window.__early = {});
      new MutationObserver(() => {
        // The click taken: the button marked before hydration (lib/playground/browser/early-clicks.ts).
        if (probe.takenAt === undefined && document.querySelector("button[data-early-click]")) probe.takenAt = performance.now();
        // The person's message in the conversation (the example prompts there are buttons).
        if (probe.answeredAt === undefined && [...document.querySelectorAll('[role="log"][aria-label="Conversation"] p')].some((p) => p.textContent.trim() === ${JSON.stringify(EARLY_PROMPT)})) probe.answeredAt = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    await page.navigate(url);
    const find = `(() => { const b = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === ${JSON.stringify(EARLY_PROMPT)}); if (!b) return null; const r = b.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, at: performance.now() }; })()`;
    let box: { x: number; y: number; at: number } | null = null;
    for (let i = 0; i < 3_000 && !box; i++) box = await page.evaluate<{ x: number; y: number; at: number } | null>(find);
    if (!box) throw new Error("the example prompt never showed");
    for (const type of ["mousePressed", "mouseReleased"])
      await page.command("Input.dispatchMouseEvent", { type, x: box.x, y: box.y, button: "left", clickCount: 1 });
    await page.evaluate(until(`window.__early.answeredAt !== undefined`, 30_000), 35_000);
    const { answeredAt, takenAt } = await page.evaluate<{ answeredAt: number; takenAt?: number }>("window.__early");
    const hydratedAt = await page.evaluate<number | null>(`performance.getEntriesByName("cmp:hydrated")[0]?.startTime ?? null`);
    // A click after hydration has no mark: the conversation is its answer.
    return {
      clickAt: box.at,
      takenMs: (takenAt ?? answeredAt) - box.at,
      answeredMs: answeredAt - box.at,
      beforeHydration: hydratedAt === null || box.at < hydratedAt,
    };
  } finally {
    await page.close();
  }
}

const range = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;

/** An earlier build of the playground to load beside today's (a URL of its running server), if any. */
const BEFORE_URL = process.env.BENCH_BEFORE_URL;

export async function benchPeers(): Promise<BenchRow[]> {
  installPeers();
  const playground = await startServer();
  const started: Started[] = [];
  const browser = await launchBareChromium();
  try {
    started.push(await startInspector(), await startMcpJam());
    const apps: App[] = [
      {
        name: "this playground",
        url: playground.url,
        usable: `${button("Add server")} && document.querySelector('[data-testid="sandbox-state"]')?.textContent === "sandbox ready"`,
        what: '"sandbox ready", Add server enabled',
        kind: "ours",
      },
      {
        // Next's runtime, React, the root layout and one button rendered once mounted, from the
        // same server: what any page of this stack pays before its own code runs.
        name: "the stack's floor",
        url: `${playground.url}/bench/floor`,
        usable: button("Add server"),
        what: "Next and React hydrating one button, app/bench/floor",
        kind: "floor",
      },
      // Another build of the playground served at BENCH_BEFORE_URL (an earlier commit), loaded in
      // the same interleaved rounds, so a change's cost to the start is read beside today's.
      ...(BEFORE_URL
        ? [
            {
              name: "this playground (before)",
              url: BEFORE_URL,
              usable: `${button("Add server")} && document.querySelector('[data-testid="sandbox-state"]')?.textContent === "sandbox ready"`,
              what: '"sandbox ready", Add server enabled; BENCH_BEFORE_URL',
              kind: "before" as const,
            },
          ]
        : []),
      { name: `MCP Inspector ${INSPECTOR.version}`, url: started[0]!.url, usable: button("Add Servers"), what: "Add Servers enabled", kind: "peer" },
      {
        name: `MCPJam ${MCPJAM.version}`,
        url: started[1]!.url,
        usable: button("Add Server"),
        what: 'guest ("Or continue as guest" clicked as it shows), Add Server enabled',
        kind: "peer",
        guestClick: true,
      },
    ];
    // One warm-up load each (the servers' first answers, the OS file cache), then interleaved rounds.
    for (const app of apps) await load(browser, app);
    const loads = new Map<string, Load[]>(apps.map((a) => [a.name, []]));
    for (let round = 0; round < LOADS; round++) for (const app of apps) loads.get(app.name)!.push(await load(browser, app));
    const rows: BenchRow[] = [];
    const usable = (name: string) => median(loads.get(name)!.map((l) => l.usableMs));
    for (const app of apps) {
      const mine = loads.get(app.name)!;
      rows.push({
        name: `${app.name}: usable (${app.what})`,
        median: usable(app.name),
        unit: "ms",
        note: `${range(mine.map((l) => l.usableMs))} over ${LOADS} interleaved fresh loads; first paint ${Math.round(median(mine.map((l) => l.firstPaintMs)))} ms; JavaScript before usable ${(median(mine.map((l) => l.scripts.bytes)) / 1e6).toFixed(2)} MB in ${median(mine.map((l) => l.scripts.files))} files`,
      });
      rows.push({
        name: `${app.name}: long tasks in the 2 s after usable`,
        median: median(mine.map((l) => l.busyMs)),
        unit: "ms",
        note: `longest ${Math.round(median(mine.map((l) => l.longestMs)))} ms (median); first quiet second at ${Math.round(median(mine.map((l) => l.quietAt)))} ms`,
      });
    }
    // Where the playground's time goes: the document, its state built when its module loads, hydration, the sandbox.
    const ours = loads.get(apps[0]!.name)!;
    const names = [...new Set(ours.flatMap((l) => Object.keys(l.phases)))];
    const phase = (name: string) => median(ours.flatMap((l) => (l.phases[name] === undefined ? [] : [l.phases[name]])));
    rows.push({
      name: "this playground: where the time goes (medians, ms from navigation)",
      value: usable(apps[0]!.name),
      unit: "ms usable",
      note: names
        .sort((a, b) => phase(a) - phase(b))
        .map((name) => `${name.replace(/^cmp:/, "")} ${Math.round(phase(name))}`)
        .join(" → "),
    });
    // What each main thread did until usable. The playground's usable waits for its first-load
    // JavaScript to compile, mostly off the main thread (docs/benchmarks.md), so read it beside the bytes above.
    for (const app of apps) {
      const profiled: MainThread[] = [];
      for (let i = 0; i < PROFILED_LOADS; i++) profiled.push(await profiledLoad(browser, app));
      const part = (k: keyof MainThread) => Math.round(median(profiled.map((p) => p[k])));
      rows.push({
        name: `${app.name}: main thread busy until usable (sampling profile)`,
        median: median(profiled.map((p) => p.js + p.browser + p.gc)),
        unit: "ms",
        note: `JavaScript ${part("js")} · browser's own work and waits (parse, compile, style, layout, paint, synchronous requests) ${part("browser")} · GC ${part("gc")}; medians of ${PROFILED_LOADS} profiled loads`,
      });
    }
    const clicks: Array<Awaited<ReturnType<typeof clickDuringLoad>>> = [];
    for (let i = 0; i < CLICK_LOADS; i++) clicks.push(await clickDuringLoad(browser, playground.url));
    rows.push({
      name: "this playground: an example prompt clicked the moment it shows, until the button shows it was taken",
      median: median(clicks.map((c) => c.takenMs)),
      unit: "ms",
      note: `${range(clicks.map((c) => c.takenMs))} over ${CLICK_LOADS} loads, ${clicks.filter((c) => c.takenMs > 100).length} of them over 100 ms; goal ≤ 100 ms`,
    });
    rows.push({
      name: "this playground: an example prompt clicked the moment it shows, until the conversation shows it",
      median: median(clicks.map((c) => c.answeredMs)),
      unit: "ms",
      note: `${range(clicks.map((c) => c.answeredMs))}; clicked at ${Math.round(median(clicks.map((c) => c.clickAt)))} ms from navigation, before hydration in ${clicks.filter((c) => c.beforeHydration).length} of ${CLICK_LOADS}`,
    });
    const floor = apps.find((a) => a.kind === "floor")!;
    const before = apps.find((a) => a.kind === "before");
    if (before) {
      rows.push({
        name: "usable: this playground ÷ this playground (before)",
        value: usable(apps[0]!.name) / usable(before.name),
        unit: "×",
        note: `the same rounds; ${Math.round(usable(apps[0]!.name))} vs ${Math.round(usable(before.name))} ms`,
      });
    }
    rows.push({
      name: "usable: this playground − the stack's floor",
      value: usable(apps[0]!.name) - usable(floor.name),
      unit: "ms",
      note: "what the playground's own code costs on top of Next and React",
    });
    for (const peer of apps.filter((a) => a.kind === "peer")) {
      rows.push({
        name: `usable: this playground ÷ ${peer.name}`,
        value: usable(apps[0]!.name) / usable(peer.name),
        unit: "×",
        note: `goal ≤ 0.8×; the stack's floor ÷ ${peer.name}: ${(usable(floor.name) / usable(peer.name)).toFixed(2)}×`,
      });
    }
    return rows;
  } finally {
    await browser.close();
    for (const s of started) s.stop();
    playground.stop();
  }
}
