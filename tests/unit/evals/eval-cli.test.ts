/**
 * `npm run eval`: the suite runner as a person runs it (a real process, the demo servers on
 * loopback, the offline demo model, the one agent loop in both modes).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "cmp-eval-"));
const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/eval.ts", ...args], { cwd: root, timeout: 120_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
const suiteFile = (name: string, suite: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(suite));
  return file;
};

describe("npm run eval", () => {
  it("runs the built-in demo suite offline in both modes and exits 0; JSON and JUnit reports are written", async () => {
    const json = path.join(dir, "out.json");
    const junit = path.join(dir, "out.xml");
    const otlp = path.join(dir, "out.otlp.json");
    const { code, stdout, stderr } = await run("evals/demo.json", "--json", json, "--junit", junit, "--otlp", otlp);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/cheapest carrier within 5 days\s+code\s+demo:code-mode-demo\s+1\/1\s+2 /);
    expect(stdout).toMatch(/cheapest carrier within 5 days\s+classic\s+demo:code-mode-demo\s+1\/1\s+3 /);
    const report = JSON.parse(readFileSync(json, "utf8")) as { runs: Array<{ passed: boolean; mode: string }> };
    expect(report.runs).toHaveLength(24);
    expect(report.runs.every((r) => r.passed)).toBe(true);
    expect(readFileSync(junit, "utf8")).toContain('tests="24" failures="0"');
    // One trace per run: the run, its model steps (with token usage) and its tool calls.
    const spans = (
      JSON.parse(readFileSync(otlp, "utf8")) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string; parentSpanId?: string; attributes: Array<{ key: string }> }> }> }>;
      }
    ).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans.filter((s) => s.parentSpanId === undefined)).toHaveLength(24);
    expect(spans.filter((s) => s.name.startsWith("chat ")).length).toBeGreaterThanOrEqual(48);
    expect(spans.some((s) => s.name === "shipping.get_quote")).toBe(true);
    expect(spans.find((s) => s.name.startsWith("chat "))?.attributes.map((a) => a.key)).toContain("gen_ai.usage.input_tokens");
  });

  it("exits 1 and names the case when one assertion fails; a case naming an unknown server fails with that reason and the suite goes on", async () => {
    const file = suiteFile("failing.json", {
      name: "failing",
      defaults: { modes: ["code"] },
      cases: [
        {
          name: "wrong claim",
          prompt: "Which carrier is cheapest to ship 2 kg from DE to US within 5 days?",
          servers: ["shipping"],
          assert: [{ answerContains: "Teleport Inc" }],
        },
        { name: "missing server", prompt: "hi", servers: ["nowhere"] },
        { name: "fine", prompt: "List the three most recent sports stories from Europe.", servers: ["news"], assert: [{ noError: true }] },
      ],
    });
    const { code, stderr } = await run(file);
    expect(code).toBe(1);
    expect(stderr).toContain('wrong claim [code, demo:code-mode-demo, run 1]: the answer does not contain "Teleport Inc"');
    expect(stderr).toMatch(/missing server \[code, demo:code-mode-demo, run 1\]: The server "nowhere" is not configured/);
    expect(stderr).toContain("2 of 3 runs failed");
  });

  it("a suite's destructive policy: deny refuses place_order in the guest, mock answers it without the server, and the case says so", async () => {
    const order = {
      name: "order two margheritas",
      prompt: "Order two margheritas from the best-rated open pizza place near Kreuzberg, paying by card to Oranienstraße 25.",
      servers: ["store"],
      assert: [{ noError: true }],
    };
    const json = path.join(dir, "policy.json");
    const denied = await run(suiteFile("deny.json", { name: "deny", destructive: "deny", defaults: { modes: ["code"] }, cases: [order] }), "--json", json);
    const deniedRun = (JSON.parse(readFileSync(json, "utf8")) as { runs: Array<{ answer: string }> }).runs[0];
    expect(denied.code, denied.stderr).toBe(0);
    // The program failed on the refused call, and the model was told why.
    expect(deniedRun?.answer).toContain("store.place_order: denied: this run's policy refuses destructive calls");
    // Mocked, the program goes on past place_order with the stand-in (that it never reaches the server: approvals.test.ts).
    const placed = { ...order, assert: [{ noError: true }, { valueMatches: { placed: true } }] };
    const mocked = await run(suiteFile("mock.json", { name: "mock", destructive: "mock", defaults: { modes: ["code"] }, cases: [placed] }), "--json", json);
    expect(mocked.code, mocked.stderr).toBe(0);
  });

  it("exits 2 on a bad suite, naming the path of each problem", async () => {
    const file = suiteFile("bad.json", { name: "bad", cases: [{ name: "c", prompt: "p", servers: ["shipping"], assert: [{ maxRequests: "two" }] }] });
    const { code, stderr } = await run(file);
    expect(code).toBe(2);
    expect(stderr).toMatch(/is not a valid suite:\n {2}cases\[0\]\.assert\[0\]/);
  });
}, 180_000);

describe("npm run eval --skills", () => {
  const skill = (code: string) => ({
    name: "double",
    description: "Twice x, through the lab.",
    inputSchema: { type: "object", properties: { x: { type: "number" } } },
    code,
    destructive: false,
    tests: [
      {
        name: "two",
        input: { x: 2 },
        calls: [{ namespace: "lab", name: "echo", server: "lab", tool: "echo", args: { message: "2" }, outcome: { ok: true, value: { echoed: "2" } } }],
        expected: { ok: true, value: 4 },
      },
    ],
    createdAt: "2026-11-27T00:00:00.000Z",
    updatedAt: "2026-11-27T00:00:00.000Z",
  });
  const skillsFile = (name: string, code: string) => suiteFile(name, { format: "code-mode-playground/skills", version: 1, skills: [skill(code)] });

  it("replays each skill's tests offline and exits 0 when they pass", async () => {
    const { code, stdout, stderr } = await run(
      "--skills",
      skillsFile("good.json", "const r = await lab.echo({ message: String(x) }); return Number(r.echoed) * 2;"),
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("pass  skills.double · two");
    expect(stdout).toContain("Skill tests: 1 of 1 passed (1 skill, replayed offline).");
  });

  it("exits 1 naming what changed when a test fails, and 2 on a bad file", async () => {
    const broken = await run("--skills", skillsFile("broken.json", "const r = await lab.echo({ message: String(x) }); return Number(r.echoed) * 3;"));
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain("FAIL  skills.double · two\n      value is 6; it was 4 when recorded.");
    const bad = await run("--skills", suiteFile("bad.json", { format: "code-mode-playground/skills", version: 1, skills: [{ name: "x" }] }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("skills[0].description: Invalid input");
  });
});
