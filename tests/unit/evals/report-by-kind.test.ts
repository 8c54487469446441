/** The report per kind of task: grouping, medians per mode, the ratio and the verdict in words, honest both ways. */
import { describe, expect, it } from "vitest";
import { compareVerdict, inferKind, reportByKind, type EvalRun } from "@/lib/evals/report";
import { laneShape, waitingLane, type LaneResult, type LaneShape } from "@/lib/model/lanes";
import { parseSuite } from "@/lib/evals/suite-text";

function run(kind: EvalRun["kind"], mode: EvalRun["mode"], inputTokens: number, requests: number, passed = true, name = `${kind}-case`): EvalRun {
  return {
    case: name,
    ...(kind ? { kind } : {}),
    mode,
    model: "demo:code-mode-demo",
    run: 1,
    passed,
    results: [],
    requests,
    inputTokens,
    outputTokens: 100,
    estimatedTokens: true,
    toolCalls: 1,
    wallMs: 200,
    answer: "",
    stop: "done",
  };
}

describe("reportByKind", () => {
  it("groups by kind in the suite's order of kinds, with medians per mode and classic ÷ code", () => {
    const rows = reportByKind([
      run("chain", "code", 4_000, 2),
      run("chain", "classic", 11_000, 7),
      run("chain", "code", 4_400, 2, true, "other chain"),
      run("chain", "classic", 9_000, 6, true, "other chain"),
      run("one-round", "code", 2_400, 2),
      run("one-round", "classic", 2_000, 2),
      run(undefined, "code", 1_000, 2),
    ]);
    expect(rows.map((r) => [r.kind, r.cases])).toEqual([
      ["one-round", 1],
      ["chain", 2],
      ["unclassified", 1],
    ]);
    const chain = rows[1]!;
    expect(chain.code).toMatchObject({ runs: 2, passed: 2, inputTokens: 4_200, requests: 2 });
    expect(chain.classic).toMatchObject({ inputTokens: 10_000, requests: 6.5 });
    expect(chain.inputRatio).toBeCloseTo(10_000 / 4_200);
    expect(chain.verdict).toBe("Code mode sends 2.4× fewer input tokens here, in 2 model requests instead of 6.5: a chain of dependent calls.");
  });

  it("says so when code mode costs more, when they are about even, when pass rates differ, and when one mode is missing", () => {
    const rows = reportByKind([
      run("one-round", "code", 2_400, 2),
      run("one-round", "classic", 2_000, 2),
      run("fan-out", "code", 3_000, 2, false),
      run("fan-out", "classic", 3_050, 3),
      run("large-catalog", "code", 900, 3),
    ]);
    expect(rows.map((r) => r.verdict)).toEqual([
      "Code mode costs 1.2× more input tokens here: a one-round task.",
      "Code mode and classic send about the same input tokens here, in 2 model requests instead of 3: a fan-out over a first call's results; it passes less often (0/1 against 1/1).",
      "Only code mode ran here (a large catalog): nothing to compare.",
    ]);
  });

  it("sets code mode against classic with tool search too, in a sentence of its own, or alone when classic did not run", () => {
    const rows = reportByKind([
      run("large-catalog", "code", 8_000, 3),
      run("large-catalog", "classic", 360_000, 3.5),
      run("large-catalog", "classic-search", 20_000, 5, false),
      run("chain", "code", 4_000, 2),
      run("chain", "classic-search", 3_000, 7),
    ]);
    expect(rows.map((r) => [r.kind, r.inputRatio, r.searchRatio])).toEqual([
      ["chain", undefined, 0.75],
      ["large-catalog", 45, 2.5],
    ]);
    expect(rows.map((r) => r.verdict)).toEqual([
      "Against classic with tool search (a chain of dependent calls), code mode costs 1.3× more input tokens here, in 2 model requests instead of 7.",
      "Code mode sends 45.0× fewer input tokens here, in 3 model requests instead of 3.5: a large catalog. Against classic with tool search, code mode sends 2.5× fewer input tokens here, in 3 model requests instead of 5; it passes more often (1/1 against 0/1).",
    ]);
  });

  it("a suite names a case's kind, and refuses one it does not know with the path", () => {
    const ok = parseSuite(JSON.stringify({ name: "s", cases: [{ name: "c", kind: "chain", prompt: "p", servers: ["lab"] }] }), "s.json");
    expect(ok.ok && ok.suite.cases[0]?.kind).toBe("chain");
    const bad = parseSuite(JSON.stringify({ name: "s", cases: [{ name: "c", kind: "spiral", prompt: "p", servers: ["lab"] }] }), "s.json");
    expect(bad.ok ? [] : bad.errors.join("\n")).toMatch(/cases\[0\]\.kind/);
  });
});

function lane(toolMode: LaneResult["spec"]["toolMode"], figures: Partial<LaneResult>, model = "demo:code-mode-demo"): LaneResult {
  return { ...waitingLane({ id: toolMode, toolMode, label: toolMode, model }), status: "done", ...figures };
}

describe("the compare view's verdict", () => {
  it("tells the kind of task from how the lanes ran, and weighs code mode against both classic baselines", () => {
    const results = [
      lane("code", { requests: 3, inputTokens: 8_000, form: { mode: "search", why: "over budget" } }),
      lane("classic", { requests: 4, inputTokens: 400_000, shape: { rounds: [2, 1, 1], largestResultChars: 900 } }),
      lane("classic-search", { requests: 6, inputTokens: 32_000, shape: { rounds: [2, 1, 1], largestResultChars: 900 } }),
    ];
    expect(compareVerdict(results)).toBe(
      "This prompt looks like a large catalog (code mode's request gave the API as tool search: the declarations are over the budget). Code mode sends 50.0× fewer input tokens here, in 3 model requests instead of 4: a large catalog. Against classic with tool search, code mode sends 4.0× fewer input tokens here, in 3 model requests instead of 6.",
    );
  });

  it("one round, a chain, a fan-out and large results, from the classic lane's rounds and results", () => {
    const code = lane("code", { requests: 2, inputTokens: 2_000, form: { mode: "declarations" } });
    const classic = (shape: LaneShape, requests: number) => lane("classic", { requests, inputTokens: 1_000 * requests, shape });
    expect(inferKind([code, classic({ rounds: [3], largestResultChars: 100 }, 2)])?.kind).toBe("one-round");
    expect(inferKind([code, classic({ rounds: [1, 1, 1], largestResultChars: 100 }, 4)])).toEqual({
      kind: "chain",
      sign: "classic made 3 rounds of one call each",
    });
    expect(inferKind([code, classic({ rounds: [1, 5], largestResultChars: 100 }, 3)])?.kind).toBe("fan-out");
    expect(inferKind([code, classic({ rounds: [1], largestResultChars: 600_000 }, 2)])).toEqual({
      kind: "large-results",
      sign: "a tool result of about 150,000 tokens reached the model in classic mode",
    });
    expect(compareVerdict([code, classic({ rounds: [1], largestResultChars: 100 }, 2)])).toBe(
      "This prompt looks like a one-round task (classic made one round of calls). Code mode and classic send about the same input tokens here: a one-round task.",
    );
  });

  it("gives no verdict while lanes run, without a code lane, or across models", () => {
    const code = lane("code", { requests: 2, inputTokens: 2_000 });
    const other = lane("classic", { requests: 3, inputTokens: 9_000, shape: { rounds: [1, 1], largestResultChars: 10 } }, "openai:gpt-5");
    expect(compareVerdict([code, { ...other, status: "running" }])).toBeUndefined();
    expect(compareVerdict([other])).toBeUndefined();
    expect(compareVerdict([code, other])).toBe("The classic lanes use another model or did not finish: no verdict on the modes alone.");
  });

  it("reads a lane's rounds and largest result from its conversation", () => {
    const shape = laneShape([
      { id: "u", role: "user", parts: [{ type: "text", text: "q" }] },
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "tool-search_tools", toolCallId: "s", state: "output-available", input: { query: "x" }, output: { declarations: "d" } },
          { type: "step-start" },
          { type: "tool-a__b", toolCallId: "1", state: "output-available", input: {}, output: { big: "x".repeat(50) } },
          { type: "tool-a__b", toolCallId: "2", state: "output-error", input: {}, errorText: "no" },
          { type: "step-start" },
          { type: "text", text: "done" },
        ],
      },
    ] as never);
    expect(shape).toEqual({ rounds: [2], largestResultChars: JSON.stringify({ big: "x".repeat(50) }).length });
  });
});
