/**
 * Files are refused by their size before any byte is read (lib/text/node/read-capped.ts): the
 * skills, mcp.json and suite readers go through it. Sparse files of 2 GiB take no disk, so the
 * test can make them; the CLI's readers run in a child process whose peak RSS is read back.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTextCapped, readTextCappedSync } from "@/lib/text/node/read-capped";

const dir = mkdtempSync(path.join(tmpdir(), "cmp-read-capped-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sparse file of `bytes` (holes read as zeros), made without writing them. */
function sparse(file: string, bytes: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return file;
}

const TWO_GIB = 2 * 1024 * 1024 * 1024;

describe("readTextCapped", () => {
  it("reads a file within its cap, and refuses one past it by its size, naming the file, what it is and the cap", async () => {
    const small = path.join(dir, "small.json");
    writeFileSync(small, '{"ok":"é"}');
    expect(await readTextCapped(small, 64, "a config file")).toBe('{"ok":"é"}');
    expect(readTextCappedSync(small, 64, "a config file")).toBe('{"ok":"é"}');
    const big = sparse(path.join(dir, "big.json"), TWO_GIB);
    await expect(readTextCapped(big, 1024 * 1024, "a config file")).rejects.toThrow(`${big} is 2048 MiB: a config file may be at most 1 MiB.`);
    expect(() => readTextCappedSync(big, 1024 * 1024, "a config file")).toThrow(`${big} is 2048 MiB: a config file may be at most 1 MiB.`);
    await expect(readTextCapped(dir, 10, "a config file")).rejects.toThrow("is a folder, not a file");
  });

  it("a file whose size the disk does not tell (/dev/zero) is cut at the cap, not read forever", async () => {
    await expect(readTextCapped("/dev/zero", 256 * 1024, "a program")).rejects.toThrow("/dev/zero is larger than that: a program may be at most 256 KiB.");
    expect(() => readTextCappedSync("/dev/zero", 256 * 1024, "a program")).toThrow("/dev/zero is larger than that");
  });
});

/** Runs `code` (ES module text importing the project's modules through tsx) and returns its stdout and peak RSS in MiB. */
function inChild(code: string): { out: string; peakMiB: number } {
  const script = `${code}\nprocess.stdout.write("\\npeak " + Math.round(process.resourceUsage().maxRSS / 1024));`;
  const file = path.join(dir, `child-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(file, script);
  const out = execFileSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", cwd: process.cwd() });
  const peak = /peak (\d+)/.exec(out);
  return { out, peakMiB: Number(peak?.[1] ?? Number.NaN) };
}

describe("the CLI's readers refuse sparse 2 GiB files by their size", () => {
  const root = process.cwd();
  it("a skill's code.js, a skills file, and the code-mode server's mcp.json: each refused with the file and the limit, peak RSS under 150 MiB", () => {
    const skills = path.join(dir, "skills");
    mkdirSync(path.join(skills, "huge"), { recursive: true });
    writeFileSync(path.join(skills, "huge", "skill.json"), JSON.stringify({ name: "huge", description: "d" }));
    sparse(path.join(skills, "huge", "code.js"), TWO_GIB);
    const skillsFile = sparse(path.join(dir, "skills.json"), TWO_GIB);
    const config = sparse(path.join(dir, "mcp.json"), TWO_GIB);
    const { out, peakMiB } = inChild(`
      import { readSkillsPath } from ${JSON.stringify(path.join(root, "lib/skills/node/skills-path.ts"))};
      import { readCodeModeConfig } from ${JSON.stringify(path.join(root, "lib/codemode-mcp/node/open.ts"))};
      for (const read of [() => readSkillsPath(${JSON.stringify(skills)}), () => readSkillsPath(${JSON.stringify(skillsFile)}), () => readCodeModeConfig(${JSON.stringify(config)})]) {
        try { await read(); console.log("READ"); } catch (error) { console.log("REFUSED " + error.message); }
      }
    `);
    expect(out).not.toContain("READ\n");
    expect(out).toContain(`REFUSED ${path.join(skills, "huge", "code.js")} is 2048 MiB: a skill's code.js may be at most 781.3 KiB.`);
    expect(out).toContain(`REFUSED ${skillsFile} is 2048 MiB: a skills file may be at most 30.5 MiB.`);
    expect(out).toContain(`${config} is 2048 MiB: a config file may be at most 1 MiB.`);
    expect(peakMiB).toBeLessThan(150);
  });

  it("npm run eval and npm run sandbox refuse a sparse suite and program the same way", () => {
    const suite = sparse(path.join(dir, "suite.json"), TWO_GIB);
    const program = sparse(path.join(dir, "program.js"), TWO_GIB);
    const run = (args: string[]) => {
      try {
        execFileSync(process.execPath, ["--import", "tsx", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
        return "exit 0";
      } catch (error) {
        return String((error as { stderr?: string }).stderr);
      }
    };
    expect(run(["--conditions=react-server", "scripts/eval.ts", suite])).toContain(`${suite} is 2048 MiB: a suite file may be at most 16 MiB.`);
    expect(run(["scripts/sandbox.ts", program])).toContain(`${program} is 2048 MiB: a program may be at most 4 MiB.`);
  });
});
