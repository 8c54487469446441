/**
 * The large-catalog suite (evals/large-catalog.json), offline with the demo model: every case
 * offers the 19 captured public servers (290 tools), served by the catalog host; every mode passes,
 * and code mode sends at least 10× fewer input tokens than classic tool calling with every tool
 * and at least 2× fewer than classic with tool search (issue 31's goals), in no more model requests.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSuite } from "@/lib/evals/node/run-suite";
import { reportByKind } from "@/lib/evals/report";
import { planCases } from "@/lib/evals/suite";
import { parseSuite } from "@/lib/evals/suite-text";

const file = path.join(import.meta.dirname, "..", "..", "..", "evals", "large-catalog.json");

describe("evals/large-catalog.json", () => {
  it("passes in every mode offline; code mode sends ≥ 10× fewer input tokens than classic with every tool, ≥ 2× fewer than classic with tool search", async () => {
    const parsed = parseSuite(readFileSync(file, "utf8"), "large-catalog.json");
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const runs = await runSuite(parsed.suite, { suiteDir: path.dirname(file), cases: planCases(parsed.suite), env: {}, demo: { chunkDelayMs: 0 } });
    expect(runs.map((r) => `${r.case} · ${r.mode}: ${r.passed ? "pass" : (r.error ?? JSON.stringify(r.results))}`)).toEqual(
      parsed.suite.cases.flatMap((c) => ["code", "classic", "classic-search"].map((mode) => `${c.name} · ${mode}: pass`)),
    );
    const [row] = reportByKind(runs);
    expect(row?.kind).toBe("large-catalog");
    expect(row?.inputRatio).toBeGreaterThanOrEqual(10);
    expect(row?.searchRatio).toBeGreaterThanOrEqual(2);
    expect(row!.code!.requests).toBeLessThanOrEqual(row!.classic!.requests);
    expect(row!.code!.requests).toBeLessThan(row!.classicSearch!.requests);
    expect(row?.verdict).toMatch(
      /^Code mode sends [\d.]+× fewer input tokens here.*\. Against classic with tool search, code mode sends [\d.]+× fewer input tokens here/,
    );
  }, 120_000);
});
