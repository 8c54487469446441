/**
 * Code mode against classic tool calling, on the demo suite (evals/demo.json) with the offline
 * demo model: per task, model requests, input and output tokens (o200k counts of the requests
 * the model really received), wall time; and the ratios. Both modes run the same loop, the same
 * servers and the same tool calls (the demo model replays its program's calls in classic mode),
 * so the difference is what each mode sends the model.
 *
 *   npm run bench -- --only modes
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runSuite } from "../../lib/evals/node/run-suite";
import { summarise } from "../../lib/evals/report";
import { parseSuite, planCases } from "../../lib/evals/suite";
import type { BenchRow } from "./rows";

const SUITE = path.resolve(import.meta.dirname, "../../evals/demo.json");

export async function benchModes(): Promise<BenchRow[]> {
  const parsed = parseSuite(readFileSync(SUITE, "utf8"));
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const runs = await runSuite(parsed.suite, {
    suiteDir: path.dirname(SUITE),
    cases: planCases(parsed.suite, { modes: ["code", "classic"], runs: 3 }),
    env: {},
    demo: { chunkDelayMs: 0 },
  });
  const groups = summarise(runs);
  const rows: BenchRow[] = [];
  const totals = { code: { requests: 0, input: 0, output: 0 }, classic: { requests: 0, input: 0, output: 0 } };
  for (const task of parsed.suite.cases) {
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
  return rows;
}
