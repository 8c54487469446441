/**
 * The commands a newcomer runs: the README's two (start, test) are the ones CI runs, and the
 * project's commands start Next without its telemetry unless the person opts in.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const readme = readFileSync("README.md", "utf8");
const ci = readFileSync(".ci/run", "utf8");
const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

/** What quietNext makes of `env`, run as the scripts run it (plain Node). */
function quieted(env: Record<string, string>): Record<string, string> {
  const code = `import("./scripts/next-env.mjs").then((m) => process.stdout.write(JSON.stringify(m.quietNext(${JSON.stringify(env)}))))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", code], { encoding: "utf8" })) as Record<string, string>;
}

describe("the README's commands", () => {
  it("the quick start's test command is what CI runs, after installing what the lock file says", () => {
    const quickStart = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(quickStart).toMatch(/^npm install && npm start\b/m);
    expect(quickStart).toMatch(/^npm test\b/m);
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});

describe("Next's telemetry", () => {
  it("is off in the project's commands unless CMP_NEXT_TELEMETRY=1, and a person's own setting stands", () => {
    expect(quieted({})).toMatchObject({ NEXT_TELEMETRY_DISABLED: "1" });
    expect(quieted({ CMP_NEXT_TELEMETRY: "1" })).not.toHaveProperty("NEXT_TELEMETRY_DISABLED");
    expect(quieted({ NEXT_TELEMETRY_DISABLED: "true" })).toMatchObject({ NEXT_TELEMETRY_DISABLED: "true" });
  });

  it("every command that starts Next goes through quietNext, and Next itself then says telemetry is disabled", () => {
    expect(scripts.build).toBe("node scripts/build.mjs");
    expect(scripts.start).toMatch(/^npm run build && node scripts\/serve\.mjs$/);
    expect(scripts.dev).toBe("node scripts/dev.mjs");
    for (const file of ["scripts/build.mjs", "scripts/serve.mjs", "scripts/dev.mjs"]) expect(readFileSync(file, "utf8"), file).toMatch(/quietNext\(/);
    const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
    const env = { ...process.env };
    delete env.NEXT_TELEMETRY_DISABLED;
    const status = execFileSync(process.execPath, [nextBin, "telemetry", "status"], { encoding: "utf8", env: { ...env, ...quieted({}) } });
    expect(status).toMatch(/Disabled/);
  });
});
