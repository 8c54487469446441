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
 * The suites start one driver per scenario, all at once (39 for 2026-07-28). Compiling the driver's
 * TypeScript in each of them (tsx) took longer than the suite's 30 s per scenario on 2 cores, so the
 * driver is bundled once with esbuild (dependencies stay in node_modules) and each scenario gets
 * SCENARIO_TIMEOUT_MS.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

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
  return exit;
}

process.exit(await main());
