/**
 * Code mode against classic tool calling, on the demo suite (evals/demo.json) with the offline
 * demo model: per task, model requests, input and output tokens (o200k counts of the requests
 * the model really received), wall time; and the ratios. Both modes run the same loop, the same
 * servers and the same tool calls (the demo model replays its program's calls in classic mode),
 * so the difference is what each mode sends the model. Then the report per kind of task over
 * the demo, large-catalog and large-results suites, against classic with every tool and, where
 * the suite runs it, classic with tool search.
 *
 *   npm run bench -- --only modes
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runSuite } from "../../lib/evals/node/run-suite";
import { reportByKind, summarise, type EvalRun } from "../../lib/evals/report";
import { planCases, type EvalSuite } from "../../lib/evals/suite";
import { parseSuite } from "../../lib/evals/suite-text";
import type { BenchRow } from "./rows";

const EVALS = path.resolve(import.meta.dirname, "../../evals");

function suite(name: string): EvalSuite {
  const parsed = parseSuite(readFileSync(path.join(EVALS, name), "utf8"), name);
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.suite;
}

/** The suite's runs, each case in the suite's modes (the demo suite: code and classic), 3 times. */
function runThrice(parsed: EvalSuite, modes?: Array<"code" | "classic">): Promise<EvalRun[]> {
  return runSuite(parsed, { suiteDir: EVALS, cases: planCases(parsed, { ...(modes ? { modes } : {}), runs: 3 }), env: {}, demo: { chunkDelayMs: 0 } });
}

export async function benchModes(): Promise<BenchRow[]> {
  const demo = suite("demo.json");
  const runs = await runThrice(demo, ["code", "classic"]);
  const groups = summarise(runs);
  const rows: BenchRow[] = [];
  const totals = { code: { requests: 0, input: 0, output: 0 }, classic: { requests: 0, input: 0, output: 0 } };
  for (const task of demo.cases) {
    const code = groups.find((g) => g.case === task.name && g.mode === "code");
    const classic = groups.find((g) => g.case === task.name && g.mode === "classic");
    if (!code || !classic) continue;
    for (const [mode, g] of [
      ["code", code],
      ["classic", classic],
    ] as const) {
      totals[mode].requests += g.requests;
      totals[mode].input += g.inputTokens;
      totals[mode].output += g.outputTokens;
    }
    rows.push({
      name: `${task.name}: input tokens, classic ÷ code`,
      value: classic.inputTokens / code.inputTokens,
      unit: "×",
      note: `input ${code.inputTokens} / ${classic.inputTokens}; requests ${code.requests} / ${classic.requests}; output ${code.outputTokens} / ${classic.outputTokens}; wall ${code.wallMs.toFixed(0)} / ${classic.wallMs.toFixed(0)} ms (code / classic, medians of 3)`,
    });
  }
  rows.push({
    name: "all 12 tasks: input tokens, classic ÷ code",
    value: totals.classic.input / totals.code.input,
    unit: "×",
    note: `input ${totals.code.input} / ${totals.classic.input}; requests ${totals.code.requests} / ${totals.classic.requests}; output ${totals.code.output} / ${totals.classic.output} (code / classic)`,
  });
  const all = [...runs, ...(await runThrice(suite("large-catalog.json"))), ...(await runThrice(suite("large-results.json")))];
  for (const kind of reportByKind(all)) {
    if (kind.code === undefined) continue;
    const against = [
      ["classic", kind.classic, kind.inputRatio],
      ["classic + tool search", kind.classicSearch, kind.searchRatio],
    ] as const;
    for (const [label, other, ratio] of against) {
      if (other === undefined || ratio === undefined) continue;
      rows.push({
        name: `${kind.kind} (${kind.cases} ${kind.cases === 1 ? "case" : "cases"}): input tokens, ${label} ÷ code`,
        value: ratio,
        unit: "×",
        note: `input ${kind.code.inputTokens} / ${other.inputTokens}; requests ${kind.code.requests} / ${other.requests}; pass ${kind.code.passed}/${kind.code.runs} / ${other.passed}/${other.runs} (code / ${label}, medians)`,
      });
    }
  }
  return rows;
}
