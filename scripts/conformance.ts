/**
 * `npm run conformance`: the official MCP conformance suite's client scenarios against the
 * project's own client (scripts/conformance-client.ts). Two lines of the suite, each from its own
 * package entry (both install a `conformance` bin, so neither is called through .bin):
 * - 0.1.16 (`@modelcontextprotocol/conformance`): every scenario of the 2025-11-25 spec, the
 *   2025-03-26 back-compat scenarios and the draft ones; its baseline, conformance-baseline.yml,
 *   is empty: every scenario must pass.
 * - 0.2.0-alpha.12 (`conformance-2026`, an npm alias of the same package): exactly the scenarios
 *   the 2026-07-28 revision requires (`--requirements 2026-07-28`), with the extension and
 *   later scenarios it adds; conformance-baseline-2026.yml lists the ones expected to fail and why.
 * Prints each scenario and how many pass; exits 1 when a scenario fails that its baseline does not
 * list, or one it lists passes (the suite's own baseline rule).
 *
 * Then the 2026 suite's server scenarios that apply to the code-mode MCP server (stateless
 * requests, the routing headers, cache hints, the Skills and tasks extensions) against it
 * (scripts/conformance-server.ts), check by check: SERVER_SCENARIOS names the checks each is
 * expected to fail and why (they need the suite's own test tools or a surface the server lacks);
 * any other failure, or a listed check that passes, fails the run.
 *
 * The suites start one driver per scenario, all at once (39 for 2026-07-28). Compiling the driver's
 * TypeScript in each of them (tsx) took longer than the suite's 30 s per scenario on 2 cores, so the
 * driver is bundled once with esbuild (dependencies stay in node_modules) and each scenario gets
 * SCENARIO_TIMEOUT_MS.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { startCodeModeForConformance } from "./conformance-server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the bundled driver goes: inside node_modules, so its bare imports resolve from the project. */
const DRIVER_BUNDLE = path.join(root, "node_modules", ".cache", "code-mode-playground", "conformance-client.mjs");
/** Time the suite gives each scenario's driver; its default (30 s) is too short with 39 started together on 2 cores. */
const SCENARIO_TIMEOUT_MS = 120_000;
const SUITE_2025 = path.join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const SUITE_2026 = path.join(root, "node_modules", "conformance-2026", "dist", "index.js");
const BASELINE_2025 = path.join(root, "conformance-baseline.yml");
const BASELINE_2026 = path.join(root, "conformance-baseline-2026.yml");

/** The suite runs: the 2025-11-25 spec's scenarios, the older and draft ones, then 2026-07-28's. */
const RUNS: ReadonlyArray<{ label: string; suite: string; baseline: string; args: string[] }> = [
  { label: "2025-11-25", suite: SUITE_2025, baseline: BASELINE_2025, args: ["--suite", "all", "--spec-version", "2025-11-25"] },
  { label: "2025-03-26 back-compat", suite: SUITE_2025, baseline: BASELINE_2025, args: ["--suite", "backcompat"] },
  { label: "draft", suite: SUITE_2025, baseline: BASELINE_2025, args: ["--suite", "draft"] },
  { label: "2026-07-28", suite: SUITE_2026, baseline: BASELINE_2026, args: ["--requirements", "2026-07-28"] },
];

interface RunResult {
  label: string;
  code: number;
  passed: string[];
  failed: string[];
  output: string;
}

/** Bundles scripts/conformance-client.ts (with the project's own modules) into one file Node runs as is. */
async function bundleDriver(): Promise<string> {
  await build({
    entryPoints: [path.join(root, "scripts", "conformance-client.ts")],
    outfile: DRIVER_BUNDLE,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
  });
  return `${process.execPath} ${DRIVER_BUNDLE}`;
}

function runSuite(driver: string, label: string, suite: string, baseline: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [suite, "client", "--command", driver, ...args, "--timeout", String(SCENARIO_TIMEOUT_MS), "--expected-failures", baseline, "--verbose"],
      {
        cwd: root,
        env: { ...process.env, NODE_NO_WARNINGS: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      const passed = [...output.matchAll(/^✓ (\S+):/gm)].map((m) => m[1] ?? "");
      const failed = [...output.matchAll(/^✗ (\S+):/gm)].map((m) => m[1] ?? "");
      resolve({ label, code: code ?? 1, passed, failed, output });
    });
  });
}

/**
 * The server scenarios run against the code-mode server, each with the checks expected to fail
 * and why. Extension scenarios are off the spec's timeline, so the suite runs them only when forced.
 */
const SERVER_SCENARIOS: ReadonlyArray<{ scenario: string; force?: boolean; expected: Readonly<Record<string, string>> }> = [
  {
    scenario: "server-stateless",
    expected: {
      "sep-2575-server-rejects-undeclared-capability": "needs the suite's test_missing_capability tool",
      "sep-2575-missing-capability-http-400": "needs the suite's test_missing_capability tool",
    },
  },
  { scenario: "http-header-validation", expected: {} },
  { scenario: "caching", expected: { "sep-2549-prompts-list-caching-hints": "the server has no prompts" } },
  { scenario: "sep-2640-skills-enumeration", force: true, expected: {} },
  { scenario: "sep-2640-skills-manifest", force: true, expected: {} },
  {
    scenario: "sep-2640-skills-directory",
    force: true,
    expected: { "sep-2640-directory-read-subdir-mimetype": "not testable: a published skill has no subdirectory" },
  },
  { scenario: "tasks-capability-negotiation", force: true, expected: { "tasks-per-request-meta-opt-in": "needs the suite's slow_compute tool" } },
];

function runServerScenario(url: string, scenario: string, force: boolean): Promise<{ code: number; checks: Map<string, boolean>; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [SUITE_2026, "server", "--url", url, "--scenario", scenario, "--spec-version", "2026-07-28", ...(force ? ["--force"] : [])],
      { cwd: root, env: { ...process.env, NODE_NO_WARNINGS: "1", NO_COLOR: "1", FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      // "[check-id   ] SUCCESS …", colours stripped; a check seen several times fails if any time failed.
      const checks = new Map<string, boolean>();
      for (const match of output.replace(/\u001b\[[0-9;]*m/g, "").matchAll(/\[([\w-]+)\s*\]\s+(SUCCESS|FAILURE)/g)) {
        const id = match[1] ?? "";
        checks.set(id, (checks.get(id) ?? true) && match[2] === "SUCCESS");
      }
      resolve({ code: code ?? 1, checks, output });
    });
  });
}

async function serverConformance(): Promise<{ passed: number; total: number; ok: boolean }> {
  const server = await startCodeModeForConformance();
  let passed = 0;
  let total = 0;
  let ok = true;
  try {
    for (const { scenario, force, expected } of SERVER_SCENARIOS) {
      const { checks, output } = await runServerScenario(server.url, scenario, force ?? false);
      const failing = [...checks].filter(([, good]) => !good).map(([id]) => id);
      const unexpected = failing.filter((id) => !(id in expected));
      const fixed = Object.keys(expected).filter((id) => checks.get(id) === true);
      passed += checks.size - failing.length;
      total += checks.size;
      console.log(`code-mode server, ${scenario}: ${checks.size - failing.length} of ${checks.size} checks pass`);
      for (const id of failing) console.log(`  ✗ ${id}${id in expected ? ` (expected: ${expected[id]})` : ""}`);
      for (const id of fixed) console.log(`  ! ${id} passes now: take it off SERVER_SCENARIOS`);
      if (checks.size === 0 || unexpected.length > 0 || fixed.length > 0) {
        ok = false;
        console.log(output.split("\n").slice(-60).join("\n"));
      }
    }
  } finally {
    await server.close();
  }
  return { passed, total, ok };
}

async function main(): Promise<number> {
  let exit = 0;
  let passed = 0;
  let total = 0;
  const driver = await bundleDriver();
  // One suite at a time: each already runs its scenarios in parallel, and this machine has 2 cores.
  for (const { label, suite, baseline, args } of RUNS) {
    const result = await runSuite(driver, label, suite, baseline, args);
    passed += result.passed.length;
    total += result.passed.length + result.failed.length;
    console.log(`${label}: ${result.passed.length} of ${result.passed.length + result.failed.length} client scenarios pass`);
    for (const name of result.failed) console.log(`  ✗ ${name}`);
    if (result.code !== 0 || result.passed.length + result.failed.length === 0) {
      exit = 1;
      console.log(result.output.split("\n").slice(-80).join("\n"));
    }
  }
  console.log(`MCP conformance (client): ${passed} of ${total} scenarios pass`);
  const server = await serverConformance();
  console.log(`MCP conformance (code-mode server, 2026-07-28): ${server.passed} of ${server.total} checks pass`);
  if (!server.ok) exit = 1;
  return exit;
}

process.exit(await main());
