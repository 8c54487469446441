import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const DIR = mkdtempSync(join(tmpdir(), "sandbox-cli-"));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npx tsx scripts/sandbox.ts …` as a person would, from the repository root. */
function cli(args: string[]): Promise<Outcome> {
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };
  return new Promise((resolve) => {
    execFile("npx", ["tsx", "scripts/sandbox.ts", ...args], { cwd: ROOT, env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

function file(name: string, code: string): string {
  const path = join(DIR, name);
  writeFileSync(path, code);
  return path;
}

describe("npm run sandbox (CLI)", { timeout: 30_000 }, () => {
  it("prints an ok RunResult as JSON and exits 0", async () => {
    const path = file("ok.ts", 'const n: number = await host.echo(20);\nconsole.log("n is", n);\nreturn n + items.length');
    const { code, stdout } = await cli([path, "--data", '{"items":[1,2]}']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, value: 22, logs: [{ level: "log", text: "n is 20" }], stats: { hostCalls: 1 } });
  });

  it("exits 1 with the typed error for a failed run, and applies limit flags", async () => {
    const { code, stdout } = await cli([file("loop.js", "while (true) {}"), "--cpu-ms", "100"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { kind: "timeout", clock: "cpu", message: "The code used more than 100 ms of CPU time" } });
  });

  it("exits 2 for bad usage", async () => {
    const ok = file("one.js", "return 1");
    for (const args of [[], [join(DIR, "missing.js")], [ok, "--cpu-ms", "zero"], [ok, "--max-calls", "1.5"], [ok, "--data", "[1]"], [ok, "--nope"]]) {
      const { code, stderr } = await cli(args);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toMatch(/Usage: npm run sandbox/);
    }
  });
});
