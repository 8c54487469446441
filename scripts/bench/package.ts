// What the installable package costs a person (issue 53), against the peers' packages measured
// the same way in the same run: the MCP Inspector and MCPJam at the versions the peers bench pins.
// For each: its tarball (ours from `npm run package`, theirs from the npm registry), its packed
// and unpacked size, an install into an empty folder with a cold npm cache (theirs fetch their
// dependencies from the registry; ours has none) and with a warm one, what the folder then holds,
// and starts from that folder: until it answers HTTP (ours also: until it prints its link) and
// until a fresh page of the bare browser (bare-chromium.ts) is usable (ours: "sandbox ready";
// theirs: the Add Server button, as in the peers bench).
//
//   npm run bench -- --only package
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tests/fixtures/free-port";
import { launchBareChromium, type BareBrowser } from "./bare-chromium";
import { until } from "./live-path";
import { button, INSPECTOR, MCPJAM, probe, startInspector, startMcpJam, type Started } from "./peers";
import { endWithThisProcess, killGroup } from "./reap";
import { median, type BenchRow } from "./rows";

/** Installs into a fresh folder with the warm cache. */
const WARM_INSTALLS = 3;
/** Starts of each app, interleaved. */
const STARTS = 7;

interface Tarball {
  file: string;
  packedBytes: number;
  unpackedBytes: number;
  files: number;
}

interface Candidate {
  id: string;
  name: string;
  tarball: Tarball;
  /** Starts it from a folder it was installed into; `printedMs` when it prints its link. */
  start(folder: string): Promise<Started & { printedMs?: number }>;
  usable: string;
  guestClick?: boolean;
}

const npm = (args: string[], cwd: string): string => {
  const result = spawnSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed: ${result.stderr.slice(-800)}`);
  return result.stdout;
};

/** `npm pack <spec>` into `out`, with npm's own figures. */
function pack(spec: string, out: string): Tarball {
  const [info] = JSON.parse(npm(["pack", spec, "--json", "--pack-destination", out], out)) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
  }>;
  if (!info) throw new Error(`npm pack ${spec} printed nothing`);
  return { file: path.join(out, info.filename), packedBytes: info.size, unpackedBytes: info.unpackedSize, files: info.entryCount };
}

/** Our tarball: packs the existing build, or builds first when there is none. */
function packOurs(out: string): Tarball {
  const built = existsSync(path.join(".next", "standalone", ".next", "required-server-files.json"));
  const result = spawnSync(process.execPath, ["scripts/package.mjs", "--out", out, ...(built ? ["--no-build"] : [])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) throw new Error("npm run package failed");
  const [file] = readdirSync(out).filter((name) => name.startsWith("code-mode-playground-") && name.endsWith(".tgz"));
  if (!file) throw new Error("npm run package wrote no tarball");
  // npm's figures for a local tarball: the same command the peers' go through.
  const listing = JSON.parse(npm(["pack", path.join(out, file), "--json", "--dry-run"], out)) as Array<{
    size: number;
    unpackedSize: number;
    entryCount: number;
  }>;
  const info = listing[0]!;
  return { file: path.join(out, file), packedBytes: info.size, unpackedBytes: info.unpackedSize, files: info.entryCount };
}

/** Installs `tarball` into a new empty folder with `cache` as npm's cache; resolves with the time it took. */
function install(tarball: string, folder: string, cache: string): number {
  mkdirSync(folder, { recursive: true });
  const started = performance.now();
  npm(["install", "--prefix", folder, "--no-audit", "--no-fund", "--no-save", "--cache", cache, "--prefer-offline", tarball], folder);
  return performance.now() - started;
}

/** Bytes and files under `dir` (symlinks counted as themselves). */
function sizeOf(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        bytes += lstatSync(full).size;
        files++;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

/** Our command from the folder it was installed into, as `npx code-mode-playground` runs it. */
async function startOurs(folder: string): Promise<Started & { printedMs: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(path.join(folder, "node_modules", ".bin", "code-mode-playground"), ["--port", String(port)], {
    cwd: folder,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "ignore"],
    detached: true,
  });
  const forget = endWithThisProcess(() => killGroup(child.pid));
  const stop = () => {
    forget();
    killGroup(child.pid);
  };
  const printedMs = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the installed command printed no link: ${out}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/is ready: http:\/\//.test(out)) {
        clearTimeout(timer);
        resolve(performance.now() - began);
      }
    });
    child.once("exit", (code) => reject(new Error(`the installed command exited (${code}): ${out}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}/`, stop, printedMs };
}

/** Spawn to "answers HTTP" and spawn to a usable page, one start. */
async function timedStart(browser: BareBrowser, candidate: Candidate, folder: string): Promise<{ servingMs: number; usableMs: number; printedMs?: number }> {
  const began = performance.now();
  const started = await candidate.start(folder);
  try {
    // Ours printed its link once listening; the peers' servers are polled (as their start is).
    const servingMs = performance.now() - began;
    const page = await browser.newPage();
    try {
      await page.addInitScript(probe(candidate.usable, candidate.guestClick === true));
      await page.navigate(started.url);
      await page.evaluate(until(`window.__peer.usableAt !== undefined`, 60_000), 65_000);
      return { servingMs, usableMs: performance.now() - began, ...(started.printedMs !== undefined ? { printedMs: started.printedMs } : {}) };
    } finally {
      await page.close();
    }
  } finally {
    started.stop();
  }
}

const mib = (bytes: number) => bytes / 1024 / 1024;
const range = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;

export async function benchPackage(): Promise<BenchRow[]> {
  const work = mkdtempSync(path.join(tmpdir(), "cmp-bench-package-"));
  const forgetWork = endWithThisProcess(() => rmSync(work, { recursive: true, force: true }));
  const tarballs = path.join(work, "tarballs");
  mkdirSync(tarballs);
  const candidates: Candidate[] = [
    {
      id: "ours",
      name: "this playground",
      tarball: packOurs(tarballs),
      start: startOurs,
      usable: `${button("Add server")} && document.querySelector('[data-testid="sandbox-state"]')?.textContent === "sandbox ready"`,
    },
    {
      id: "inspector",
      name: `MCP Inspector ${INSPECTOR.version}`,
      tarball: pack(`${INSPECTOR.name}@${INSPECTOR.version}`, tarballs),
      start: (folder) => startInspector(folder),
      usable: button("Add Servers"),
    },
    {
      id: "mcpjam",
      name: `MCPJam ${MCPJAM.version}`,
      tarball: pack(`${MCPJAM.name}@${MCPJAM.version}`, tarballs),
      start: (folder) => startMcpJam(folder),
      usable: button("Add Server"),
      guestClick: true,
    },
  ];
  const rows: BenchRow[] = [];
  const folders = new Map<string, string>();
  const installedBytes = new Map<string, number>();
  for (const candidate of candidates) {
    const { tarball } = candidate;
    rows.push(
      { name: `${candidate.name}: packed (the tarball)`, value: mib(tarball.packedBytes), unit: "MiB" },
      { name: `${candidate.name}: unpacked (the package alone)`, value: mib(tarball.unpackedBytes), unit: "MiB", note: `${tarball.files} files` },
    );
    const cache = path.join(work, `${candidate.id}-npm-cache`);
    const cold = path.join(work, `${candidate.id}-cold`);
    const coldMs = install(tarball.file, cold, cache);
    const warm: number[] = [];
    for (let i = 0; i < WARM_INSTALLS; i++) warm.push(install(tarball.file, path.join(work, `${candidate.id}-warm-${i}`), cache));
    const installed = sizeOf(path.join(cold, "node_modules"));
    const packages = readdirSync(path.join(cold, "node_modules")).filter((name) => !name.startsWith(".")).length;
    rows.push(
      {
        name: `${candidate.name}: installed into an empty folder`,
        value: mib(installed.bytes),
        unit: "MiB",
        note: `${installed.files} files; ${packages} top-level packages`,
      },
      { name: `${candidate.name}: install, npm's cache cold`, value: coldMs, unit: "ms", note: "one install; dependencies fetched from the registry" },
      { name: `${candidate.name}: install, npm's cache warm`, median: median(warm), unit: "ms", note: `${WARM_INSTALLS} installs, each into a new folder` },
    );
    folders.set(candidate.id, cold);
    installedBytes.set(candidate.id, installed.bytes);
  }
  const browser = await launchBareChromium();
  const starts = new Map<string, Array<{ servingMs: number; usableMs: number; printedMs?: number }>>();
  try {
    // One warm-up start each (the OS file cache), then interleaved rounds.
    for (const candidate of candidates) await timedStart(browser, candidate, folders.get(candidate.id)!);
    for (let round = 0; round < STARTS; round++) {
      for (const candidate of candidates) {
        const list = starts.get(candidate.id) ?? [];
        list.push(await timedStart(browser, candidate, folders.get(candidate.id)!));
        starts.set(candidate.id, list);
      }
    }
  } finally {
    await browser.close();
    forgetWork();
    rmSync(work, { recursive: true, force: true });
  }
  const ours = starts.get("ours")!;
  rows.push({ name: "this playground: start → printed link", median: median(ours.map((s) => s.printedMs ?? NaN)), unit: "ms", note: `${STARTS} starts` });
  for (const candidate of candidates) {
    const list = starts.get(candidate.id)!;
    rows.push(
      {
        name: `${candidate.name}: start → answers HTTP`,
        median: median(list.map((s) => s.servingMs)),
        unit: "ms",
        note: `${range(list.map((s) => s.servingMs))} ms over ${STARTS} starts, interleaved`,
      },
      {
        name: `${candidate.name}: start → first page usable`,
        median: median(list.map((s) => s.usableMs)),
        unit: "ms",
        note: `${range(list.map((s) => s.usableMs))} ms; ${candidate.id === "ours" ? '"sandbox ready" and Add server enabled' : "Add Server(s) enabled"}, in a fresh context of the bare browser`,
      },
    );
  }
  const usable = (id: string) => median(starts.get(id)!.map((s) => s.usableMs));
  for (const peer of candidates.filter((c) => c.id !== "ours")) {
    rows.push(
      { name: `start → usable: this playground ÷ ${peer.name}`, value: usable("ours") / usable(peer.id), unit: "×" },
      { name: `installed: this playground ÷ ${peer.name}`, value: installedBytes.get("ours")! / installedBytes.get(peer.id)!, unit: "×" },
    );
  }
  return rows;
}
