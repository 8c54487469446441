/**
 * `npm run conformance`: the official MCP conformance suite's client scenarios against the
 * project's own client (scripts/conformance-client.ts): every scenario of the 2025-11-25 spec,
 * the 2025-03-26 back-compat scenarios and the draft ones. Prints each scenario and how many pass;
 * exits 1 when a scenario fails that conformance-baseline.yml does not list (or one it lists
 * passes: the suite's own baseline rule). The baseline is empty: every scenario must pass.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const driver = `${bin("tsx")} ${path.join(root, "scripts", "conformance-client.ts")}`;

/** The suite runs: the 2025-11-25 spec's scenarios, then the older and draft ones. */
const RUNS: ReadonlyArray<{ label: string; args: string[] }> = [
  { label: "2025-11-25", args: ["--suite", "all", "--spec-version", "2025-11-25"] },
  { label: "2025-03-26 back-compat", args: ["--suite", "backcompat"] },
  { label: "draft", args: ["--suite", "draft"] },
];

interface RunResult {
  label: string;
  code: number;
  passed: string[];
  failed: string[];
  output: string;
}

function runSuite(label: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(
      bin("conformance"),
      ["client", "--command", driver, ...args, "--expected-failures", path.join(root, "conformance-baseline.yml"), "--verbose"],
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
  // One suite at a time: each already runs its scenarios in parallel, and this machine has 2 cores.
  for (const { label, args } of RUNS) {
    const result = await runSuite(label, args);
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
