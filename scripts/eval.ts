// `npm run eval -- <suite.json> [options]`: runs an eval suite headless (lib/evals), in code
// mode and classic mode, and prints a table per case × mode × model. `--skills <dir|file>` also
// (or only) replays the skills' tests offline (lib/skills/skill-tests.ts).
// Exit codes: 0 every assertion held, 1 an assertion failed (the cases are named), 2 bad usage or suite.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { runSuite } from "../lib/evals/node/run-suite";
import { junitXml, reportByKind, summarise, type EvalRun, type KindFigures } from "../lib/evals/report";
import { planCases, TOOL_MODES, type ToolMode } from "../lib/evals/suite";
import { parseSuite } from "../lib/evals/suite-text";
import { readTextCappedSync } from "../lib/text/node/read-capped";
import { messageOf } from "../lib/text/error-message";

/** The largest suite file read (the large-catalog suites are well under 1 MiB). */
const SUITE_MAX_BYTES = 16 * 1024 * 1024;
import { otlpTraces } from "../lib/timeline/otlp";
import { readSkillsPath } from "../lib/skills/node/skills-path";
import { runSkillTest } from "../lib/skills/skill-tests";
import { runInNode } from "../lib/sandbox/node/node-engine";

/** Replays every skill's tests offline and prints a line per test; resolves with how many failed. */
async function runSkillTests(where: string): Promise<number> {
  let skills;
  try {
    skills = await readSkillsPath(where);
  } catch (error) {
    process.stderr.write(`${messageOf(error)}\n`);
    process.exit(2);
  }
  let failed = 0;
  let total = 0;
  for (const skill of skills) {
    for (const test of skill.tests) {
      total++;
      const result = await runSkillTest(skill, test, (request, host) => runInNode(request, host));
      if (!result.passed) failed++;
      process.stdout.write(`${result.passed ? "pass" : "FAIL"}  skills.${skill.name} · ${test.name}\n`);
      for (const problem of result.problems) process.stdout.write(`      ${problem.message}\n`);
    }
  }
  process.stdout.write(
    `\nSkill tests: ${total - failed} of ${total} passed (${skills.length} ${skills.length === 1 ? "skill" : "skills"}, replayed offline).\n`,
  );
  return failed;
}

const USAGE = `Usage: code-mode-playground eval <suite.json|suite.yaml> [options]
       code-mode-playground eval --skills <dir|file> [suite]
       (in a clone: npm run eval -- <suite.json> [options])

Runs every case of the suite through the agent loop (in Node: the QuickJS sandbox, MCP over HTTP,
the provider called directly) and checks its assertions. The suite format is in docs/evals.md.

Options:
  --model <provider:id>   model to run (repeatable; overrides the suite), e.g. openai:gpt-5, demo:code-mode-demo
  --base-url <url>        base URL for openai-compatible models
  --modes <list>          code,classic,classic-search (default: the suite's, else code,classic)
  --runs <n>              runs per case, mode and model (default: the suite's, else 1)
  --json <file>           write every run and the summary as JSON
  --junit <file>          write JUnit XML (a test case per run)
  --otlp <file>           write every run as an OpenTelemetry trace (OTLP JSON: model steps and tool calls)
  --skills <dir|file>     replay the tests of a skills folder or skills.json offline (no server, no model)

Keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...).
Exit codes: 0 all passed, 1 an assertion failed, 2 bad usage or a bad suite file.`;

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: "string", multiple: true },
    "base-url": { type: "string" },
    modes: { type: "string" },
    runs: { type: "string" },
    json: { type: "string" },
    junit: { type: "string" },
    otlp: { type: "string" },
    skills: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const file = positionals[0];
if (!file && !values.skills) usage("Name a suite file, or --skills.");
const skillsFailed = values.skills ? await runSkillTests(values.skills) : 0;
if (!file) process.exit(skillsFailed > 0 ? 1 : 0);
const suiteFile: string = file;
let text: string;
try {
  text = readTextCappedSync(file, SUITE_MAX_BYTES, "a suite file");
} catch (error) {
  usage(`Cannot read ${file}: ${messageOf(error)}`);
}
const parsed = parseSuite(text, file);
if (!parsed.ok) {
  process.stderr.write(`${file} is not a valid suite:\n${parsed.errors.map((e) => `  ${e}`).join("\n")}\n`);
  process.exit(2);
}
const modes = values.modes?.split(",").map((m) => m.trim());
if (modes && !modes.every((m): m is ToolMode => (TOOL_MODES as readonly string[]).includes(m))) usage(`--modes takes ${TOOL_MODES.join(", ")}.`);
const runs = values.runs === undefined ? undefined : Number(values.runs);
if (runs !== undefined && (!Number.isInteger(runs) || runs < 1 || runs > 100)) usage("--runs takes an integer from 1 to 100.");
const cases = planCases(parsed.suite, { ...(modes ? { modes } : {}), ...(values.model ? { models: values.model } : {}), ...(runs ? { runs } : {}) });

const tty = process.stderr.isTTY;
const progress = (run: EvalRun, done: number, total: number) => {
  const line = `[${done}/${total}] ${run.passed ? "pass" : "FAIL"} ${run.case} · ${run.mode} · ${run.model} · run ${run.run}`;
  process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
};

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

async function main(): Promise<number> {
  const aborter = new AbortController();
  process.once("SIGINT", () => aborter.abort());
  const all = await runSuite(parsed.ok ? parsed.suite : (undefined as never), {
    suiteDir: path.dirname(path.resolve(suiteFile)),
    cases,
    env: process.env,
    ...(values["base-url"] ? { baseURL: values["base-url"] } : {}),
    onRun: progress,
    signal: aborter.signal,
  });
  if (tty) process.stderr.write("\n");
  const groups = summarise(all);
  const estimated = all.some((r) => r.estimatedTokens);
  process.stdout.write(`\n${pad("case", 44)} ${pad("mode", 14)} ${pad("model", 26)} pass  requests  input tok  output tok  wall ms\n`);
  for (const g of groups) {
    process.stdout.write(
      `${pad(g.case, 44)} ${pad(g.mode, 14)} ${pad(g.model, 26)} ${`${g.passed}/${g.runs}`.padEnd(5)} ${String(g.requests).padStart(8)}  ${String(Math.round(g.inputTokens)).padStart(9)}  ${String(Math.round(g.outputTokens)).padStart(10)}  ${String(Math.round(g.wallMs)).padStart(7)}\n`,
    );
  }
  process.stdout.write(
    `\nMedians per case, mode and model.${estimated ? " Token figures marked estimated where a provider reported none (o200k count of what was sent)." : ""}\n`,
  );
  const kinds = reportByKind(all);
  if (kinds.some((k) => k.kind !== "unclassified")) {
    const searched = kinds.some((k) => k.classicSearch);
    process.stdout.write(
      `\n${pad("kind of task", 16)} ${pad("cases", 5)} ${pad("code: pass  req  input tok", 27)} ${pad("classic: pass  req  input tok", 30)} ${searched ? `${pad("+ search: pass  req  input tok", 31)} ` : ""}classic ÷ code${searched ? "  search ÷ code" : ""}\n`,
    );
    const ratio = (r: number | undefined) => (r === undefined ? "—" : `${r.toFixed(2)}×`);
    const cell = (f: KindFigures | undefined, width: number) =>
      pad(f ? `${`${f.passed}/${f.runs}`.padStart(5)} ${String(f.requests).padStart(4)} ${String(Math.round(f.inputTokens)).padStart(10)}` : "—", width);
    for (const k of kinds) {
      process.stdout.write(
        `${pad(k.kind, 16)} ${String(k.cases).padStart(5)} ${cell(k.code, 27)} ${cell(k.classic, 30)} ${searched ? `${cell(k.classicSearch, 31)} ` : ""}${pad(ratio(k.inputRatio), 14)}${searched ? `  ${ratio(k.searchRatio)}` : ""}\n`,
      );
    }
    for (const k of kinds) process.stdout.write(`- ${k.verdict}\n`);
  }
  if (values.json)
    writeFileSync(
      values.json,
      `${JSON.stringify({ suite: parsed.ok ? parsed.suite.name : "", runs: all.map(({ trace: _trace, ...run }) => run), summary: groups, byKind: reportByKind(all) }, null, 2)}\n`,
    );
  if (values.otlp) writeFileSync(values.otlp, `${JSON.stringify(otlpTraces(all.flatMap((r) => (r.trace ? [r.trace] : []))))}\n`);
  if (values.junit) writeFileSync(values.junit, junitXml(parsed.ok ? parsed.suite.name : "suite", all));
  const failed = all.filter((r) => !r.passed);
  if (aborter.signal.aborted) process.stderr.write("Stopped: the results above are partial.\n");
  if (failed.length === 0) return aborter.signal.aborted ? 1 : 0;
  process.stderr.write(`\n${failed.length} of ${all.length} runs failed:\n`);
  for (const r of failed) {
    const why = r.results.filter((a) => a.status === "fail").map((a) => a.message);
    process.stderr.write(`  ${r.case} [${r.mode}, ${r.model}, run ${r.run}]: ${why.join("; ") || r.error || "failed"}\n`);
  }
  return 1;
}

main().then(
  (code) => process.exit(code === 0 && skillsFailed > 0 ? 1 : code),
  (error: unknown) => {
    process.stderr.write(`${messageOf(error)}\n`);
    process.exit(1);
  },
);
