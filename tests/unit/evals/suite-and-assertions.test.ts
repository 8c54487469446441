import { describe, expect, it, vi } from "vitest";
import { runEvalCases, type ExecuteCase } from "@/lib/evals/run-cases";
import { check, checkAll, partialMatch, type RunFacts } from "@/lib/evals/assertions";
import { junitXml, summarise, type EvalRun } from "@/lib/evals/report";
import { caseFromTestCall, planCases, withCase } from "@/lib/evals/suite";
import { parseSuite } from "@/lib/evals/suite-text";

const minimal = { name: "s", cases: [{ name: "c", prompt: "p", servers: ["shipping"] }] };

describe("suite files", () => {
  it("accepts a minimal suite and fills the defaults: both modes, the demo model, one run", () => {
    const parsed = parseSuite(JSON.stringify(minimal));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(planCases(parsed.suite)[0]).toMatchObject({ modes: ["code", "classic"], models: ["demo:code-mode-demo"], runs: 1, maxSteps: 10, assert: [] });
    expect(planCases(parsed.suite, { modes: ["classic"], runs: 3, models: ["openai:gpt-5"] })[0]).toMatchObject({
      modes: ["classic"],
      runs: 3,
      models: ["openai:gpt-5"],
    });
  });

  it.each([
    ["an unknown field", { ...minimal, extra: 1 }, /^\(suite\): Unrecognized key/],
    ["a wrong type", { ...minimal, cases: [{ ...minimal.cases[0], servers: "shipping" }] }, /^cases\[0\]\.servers: /],
    [
      "an unknown assertion",
      { ...minimal, cases: [{ ...minimal.cases[0], assert: [{ toolCalled: "shipping.get_quote" }, { answerIs: "x" }] }] },
      /^cases\[0\]\.assert\[1\]/,
    ],
    ["a bad tool name", { ...minimal, cases: [{ ...minimal.cases[0], assert: [{ toolCalled: "get_quote" }] }] }, /^cases\[0\]\.assert\[0\]/],
    ["a bad model", { ...minimal, defaults: { models: ["gpt-5"] } }, /^defaults\.models\[0\]: Name a model as "provider:model-id"/],
    ["no cases", { name: "s", cases: [] }, /^cases: /],
  ])("names the path of %s", (_label, suite, pattern) => {
    const parsed = parseSuite(JSON.stringify(suite));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]).toMatch(pattern);
  });

  it("decides destructive calls before a run: approve by default (as npm run eval), or deny, mock, ask; anything else names the field", () => {
    const minimal = { name: "s", cases: [{ name: "c", prompt: "p", servers: ["store"] }] };
    const parsed = parseSuite(JSON.stringify(minimal));
    expect(parsed.ok && parsed.suite.destructive).toBe("approve");
    const ask = parseSuite(JSON.stringify({ ...minimal, destructive: "ask" }));
    expect(ask.ok && ask.suite.destructive).toBe("ask");
    const bad = parseSuite(JSON.stringify({ ...minimal, destructive: "sometimes" }));
    expect(bad.ok ? [] : bad.errors.join("\n")).toMatch(/^destructive: /m);
  });

  it("reads the same suite from YAML, with the same path-named errors", () => {
    const yaml = `name: s
defaults:
  modes: [classic]
cases:
  - name: c
    prompt: "Which carrier is cheapest?"
    servers: [shipping]
    assert:
      - toolCalled: shipping.get_quote
        args: { weightKg: 2 }
      - maxRequests: 3
`;
    const parsed = parseSuite(yaml, "suite.yaml");
    expect(parsed).toMatchObject({
      ok: true,
      suite: { defaults: { modes: ["classic"] }, cases: [{ assert: [{ toolCalled: "shipping.get_quote", args: { weightKg: 2 } }, { maxRequests: 3 }] }] },
    });
    expect(parseSuite(yaml.replace("maxRequests: 3", "maxRequests: three"), "suite.yml")).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^cases\[0\]\.assert\[1\]/) as string],
    });
    expect(parseSuite("name: [unclosed", "s.yaml")).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not YAML/) as string] });
    expect(parseSuite("name: a\nname: b\ncases: []", "s.yaml")).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^not YAML: .*[Mm]ap keys must be unique/) as string],
    });
  });

  it("a test call becomes a case that the suite schema accepts; repeated names get a number", () => {
    const made = caseFromTestCall("lab", "echo", { value: "hi" });
    expect(made).toMatchObject({ servers: ["lab"], assert: [{ toolCalled: "lab.echo", args: { value: "hi" } }, { noError: true }] });
    const suite = withCase(withCase(undefined, made), made);
    expect(suite.cases.map((c) => c.name)).toEqual(["lab.echo test call", "lab.echo test call (2)"]);
    expect(parseSuite(JSON.stringify(suite), "s.json").ok).toBe(true);
  });

  it("says when the file is not JSON", () => {
    expect(parseSuite("{ nope", "suite.json")).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not JSON/) as string] });
  });
});

const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
  mode: "code",
  answer: "SwiftAir is cheapest at 61.00 EUR",
  calls: [
    { server: "shipping", tool: "get_quote", args: { carrier: "swiftair", weightKg: 2, extra: { a: 1, b: 2 } }, ok: true },
    { server: "shipping", tool: "list_carriers", args: {}, ok: true },
  ],
  values: [{ cheapest: { carrier: "SwiftAir", price: 61 }, all: [1, 2, 3] }],
  requests: 2,
  inputTokens: 5_000,
  error: undefined,
  ...over,
});

describe("assertions", () => {
  it("partial match: objects by key, arrays from the start, the rest equal", () => {
    expect(partialMatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(partialMatch([1, 2, 3], [1, 2])).toBe(true);
    expect(partialMatch([1, 2], [2])).toBe(false);
    expect(partialMatch({ a: "1" }, { a: 1 })).toBe(false);
    expect(partialMatch(null, {})).toBe(false);
  });

  it.each([
    [{ toolCalled: "shipping.get_quote", args: { carrier: "swiftair", extra: { a: 1 } } }, "pass"],
    [{ toolCalled: "shipping.get_quote", args: { carrier: "postal" } }, "fail"],
    [{ toolCalled: "shipping.estimate_delivery" }, "fail"],
    [{ toolNotCalled: "store.place_order" }, "pass"],
    [{ toolNotCalled: "shipping.list_carriers" }, "fail"],
    [{ valueMatches: { cheapest: { carrier: "SwiftAir" } } }, "pass"],
    [{ valueMatches: { cheapest: { carrier: "Postal" } } }, "fail"],
    [{ answerContains: "61.00 EUR" }, "pass"],
    [{ answerContains: "Postal" }, "fail"],
    [{ answerMatches: "\\d+\\.\\d\\d EUR" }, "pass"],
    [{ answerMatches: "(" }, "fail"],
    [{ maxRequests: 2 }, "pass"],
    [{ maxRequests: 1 }, "fail"],
    [{ maxInputTokens: 5_000 }, "pass"],
    [{ maxInputTokens: 4_999 }, "fail"],
    [{ noError: true }, "pass"],
  ] as const)("%j → %s", (assertion, status) => {
    expect(check(assertion, facts()).status).toBe(status);
  });

  it("a program value does not exist in classic mode: the check is skipped, not failed", () => {
    expect(check({ valueMatches: { x: 1 } }, facts({ mode: "classic", values: [] }))).toMatchObject({ status: "skipped" });
  });

  it("a run with an error fails noError with the error's words; the run fails when any assertion fails", () => {
    const run = facts({ error: "The provider is rate-limiting requests (HTTP 429)" });
    const verdict = checkAll([{ answerContains: "SwiftAir" }, { noError: true }], run);
    expect(verdict.passed).toBe(false);
    expect(verdict.results[1]?.message).toContain("HTTP 429");
  });
});

const run = (over: Partial<EvalRun>): EvalRun => ({
  case: "c",
  mode: "code",
  model: "demo:x",
  run: 1,
  passed: true,
  results: [],
  requests: 2,
  inputTokens: 100,
  outputTokens: 10,
  estimatedTokens: true,
  toolCalls: 3,
  wallMs: 50,
  answer: "",
  stop: "done",
  ...over,
});

describe("reports", () => {
  it("medians per case × mode × model", () => {
    const groups = summarise([run({ inputTokens: 100 }), run({ inputTokens: 300, passed: false, run: 2 }), run({ mode: "classic", requests: 4 })]);
    expect(groups).toEqual([
      expect.objectContaining({ case: "c", mode: "code", runs: 2, passed: 1, inputTokens: 200 }),
      expect.objectContaining({ mode: "classic", runs: 1, requests: 4 }),
    ]);
  });

  it("JUnit XML: a test case per run, failures with their reasons, everything escaped", () => {
    const failed = run({
      case: 'quote "<b>"',
      passed: false,
      results: [{ assertion: { answerContains: "x" }, status: "fail", message: 'the answer does not contain "x" & more' }],
    });
    const text = junitXml("demo", [run({}), failed]);
    expect(text).toContain('<testsuite name="demo" tests="2" failures="1"');
    expect(text).toContain('name="quote &quot;&lt;b&gt;&quot; [code, demo:x, run 1]"');
    expect(text).toContain('<failure message="the answer does not contain &quot;x&quot; &amp; more">');
    expect(text.match(/<testcase /g)).toHaveLength(2);
  });
});

describe("runEvalCases", () => {
  it("leaves the time a person took to answer out of a run's wall time", async () => {
    let now = 1_000;
    const spy = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      const planned = planCases({
        name: "s",
        destructive: "ask",
        discovery: "auto",
        declarationsBudgetTokens: 4_000,
        defaults: { modes: ["code"] },
        cases: [{ name: "c", prompt: "p", servers: ["store"], assert: [] }],
      });
      const result = { messages: [], steps: [], stop: { kind: "done" as const } } as unknown as Awaited<ReturnType<ExecuteCase>>["result"];
      const execute: ExecuteCase = () => {
        now += 1_000; // 700 ms of it waiting for the person
        return Promise.resolve({ result, calls: [], values: [], waitedMs: 700 });
      };
      const [run] = await runEvalCases(planned, execute);
      expect(run?.wallMs).toBe(300);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("parseModelRef", () => {
  it("reads provider:model-id, defaults an empty id, and names an unknown provider", async () => {
    const { parseModelRef } = await import("@/lib/model/providers");
    expect(parseModelRef("openai:gpt-5")).toEqual({ ok: true, provider: "openai", modelId: "gpt-5" });
    expect(parseModelRef("openai-compatible:llama3:8b")).toEqual({ ok: true, provider: "openai-compatible", modelId: "llama3:8b" });
    const demo = parseModelRef("demo:");
    expect(demo.ok && demo.modelId.length > 0).toBe(true);
    expect(parseModelRef("nope:x")).toMatchObject({ ok: false, message: expect.stringContaining('Unknown provider "nope"') as unknown });
  });
});
