/**
 * The large-results suite (evals/large-results.json), offline with the demo model: questions
 * that need a handful of fields out of the shipping server's year of shipments or a customs
 * guide. Both modes pass; code mode keeps the data in the sandbox and sends at least 20× fewer
 * input tokens than classic tool calling (issue 31's goal), in no more model requests.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSuite } from "@/lib/evals/node/run-suite";
import { reportByKind } from "@/lib/evals/report";
import { planCases } from "@/lib/evals/suite";
import { parseSuite } from "@/lib/evals/suite-text";

const file = path.join(import.meta.dirname, "..", "..", "..", "evals", "large-results.json");

describe("evals/large-results.json", () => {
  it("passes in both modes offline, and code mode sends ≥ 20× fewer input tokens than classic", async () => {
    const parsed = parseSuite(readFileSync(file, "utf8"), "large-results.json");
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const runs = await runSuite(parsed.suite, { suiteDir: path.dirname(file), cases: planCases(parsed.suite), env: {}, demo: { chunkDelayMs: 0 } });
    expect(runs.map((r) => `${r.case} · ${r.mode}: ${r.passed ? "pass" : (r.error ?? JSON.stringify(r.results))}`)).toEqual(
      parsed.suite.cases.flatMap((c) => ["code", "classic"].map((mode) => `${c.name} · ${mode}: pass`)),
    );
    const [row] = reportByKind(runs);
    expect(row?.kind).toBe("large-results");
    expect(row?.inputRatio).toBeGreaterThanOrEqual(20);
    expect(row!.code!.requests).toBeLessThanOrEqual(row!.classic!.requests);
    // Every case on its own, too: the one with the smallest result (the customs guide) included.
    for (const name of parsed.suite.cases.map((c) => c.name)) {
      const tokens = (mode: string) => runs.find((r) => r.case === name && r.mode === mode)!.inputTokens;
      expect(tokens("classic") / tokens("code")).toBeGreaterThanOrEqual(5);
    }
    expect(row?.verdict).toMatch(/^Code mode sends [\d.]+× fewer input tokens here: large intermediate results\.$/);
  }, 120_000);
});
