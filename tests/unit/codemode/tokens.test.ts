/** Token estimates: o200k_base counts, per tool, per namespace and for the prompt. */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { buildSystemPrompt } from "../../../lib/codemode/system-prompt";
import { countTokens, tokenReport } from "../../../lib/codemode/tokens";
import { loadCorpus } from "./helpers";

describe("tokens", () => {
  it("counts with o200k_base", () => {
    // "hello world" is two o200k_base tokens; "function" one; the empty string none.
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("function")).toBe(1);
    expect(countTokens("")).toBe(0);
  });

  it("reports per tool, per namespace and for the whole prompt", () => {
    const declarations = generateDeclarations(loadCorpus());
    const prompt = buildSystemPrompt(declarations);
    const report = tokenReport(declarations, prompt);
    expect(report).toMatchObject({ encoding: "o200k_base", estimate: true, total: countTokens(prompt) });
    expect(report.namespaces.map((n) => n.namespace)).toEqual(["everything", "filesystem", "memory", "sequential_thinking"]);
    const memory = report.namespaces.find((n) => n.namespace === "memory");
    const ns = declarations.namespaces.find((n) => n.namespace === "memory");
    expect(memory?.tokens).toBe(countTokens(ns?.text ?? "x"));
    expect(memory?.sharedTypes).toBe(countTokens(ns?.types.map((t) => t.text).join("\n") ?? "x"));
    const readGraph = memory?.tools.find((t) => t.name === "read_graph");
    const readGraphText = ns?.tools.find((t) => t.name === "read_graph")?.text ?? "x";
    expect(readGraph?.tokens).toBe(countTokens(readGraphText));
    // Alone, read_graph needs all three shared types: its standalone count includes them.
    const standalone = ["declare namespace memory{", ...(ns?.types.map((t) => t.text) ?? []), readGraphText, "}"].join("\n");
    expect(readGraph?.standalone).toBe(countTokens(standalone));
    // Without a prompt, the total is the declarations'.
    expect(tokenReport(declarations).total).toBe(countTokens(declarations.text));
  });
});
