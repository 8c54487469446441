/**
 * `npm run agent`: the headless runner from the command line, as a person runs it (a real
 * process, the demo servers on loopback, the offline demo model, the same agent loop as the page).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";

const root = path.resolve(import.meta.dirname, "../../..");
const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/agent.ts", ...args], { cwd: root, timeout: 60_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe("npm run agent", () => {
  it("answers an example prompt: the program runs against the demo servers and the answer quotes its result", async () => {
    const { code, stdout, stderr } = await run(DEMO_SCRIPTS[0]!.prompt);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/EuroDash.*EUR/);
    expect(stderr).toMatch(/^· 2 model calls, 1 program, \d+ input and \d+ output tokens; stop: done$/m);
    // Each program says it runs once, on a line of its own.
    expect(stderr.match(/running/g)).toHaveLength(1);
    expect(stderr).toMatch(/^· program \S+ running$/m);
    expect(stderr).toMatch(/^· program \S+: ok$/m);
  });

  it("offers skills from a file: the demo model calls one a prompt names, its program runs against the demo servers", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cmp-agent-"));
    const file = path.join(dir, "skills.json");
    const skill = {
      name: "carrier_count",
      description: "How many carriers the shipping server knows.",
      inputSchema: { type: "object", properties: {} },
      code: "const { carriers } = await shipping.list_carriers();\nreturn { carriers: carriers.length };",
      destructive: false,
      tests: [],
      createdAt: "2026-11-27T00:00:00.000Z",
      updatedAt: "2026-11-27T00:00:00.000Z",
    };
    writeFileSync(file, JSON.stringify({ format: "code-mode-playground/skills", version: 1, skills: [skill] }));
    const { code, stdout, stderr } = await run("Use skills.carrier_count with {}", "--skills", file);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("`skills.carrier_count` returned:");
    expect(stdout).toMatch(/"carriers": 5/);
    const bad = await run("hi", "--skills", path.join(dir, "missing"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Cannot read skills at");
  });

  it("refuses bad usage with exit code 2", async () => {
    const { code, stderr } = await run("--provider", "nope", "hi");
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown provider "nope"');
  });
}, 120_000);
