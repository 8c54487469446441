/** The one rule for the typed API's form: every declaration, or tool search past a budget. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { choosePromptForm, createToolCatalog, estimateTokens, generateDeclarations } from "@/lib/codemode";
import { countTokens } from "@/lib/codemode/tokens";
import { startDemoWorld } from "../../fixtures/model/demo-world";
import { syntheticCatalog } from "../../fixtures/schemas/synthetic-catalog";

const reference = ["everything", "filesystem", "memory", "sequential-thinking"].map((name) => ({
  name,
  tools: (JSON.parse(readFileSync(`tests/fixtures/schemas/${name}.json`, "utf8")) as { tools: [] }).tools,
}));

describe("estimateTokens", () => {
  it("stays within 15 % of the o200k count on the demo and reference servers' declarations and on a synthetic catalog", async () => {
    const demo = await startDemoWorld();
    const demoText = demo.world.catalog.declarations.text;
    await demo.close();
    const samples = [demoText, ...reference.map((s) => generateDeclarations([s]).text), generateDeclarations(syntheticCatalog(300, 12)).text];
    for (const text of samples) {
      const exact = countTokens(text);
      expect(Math.abs(estimateTokens(text) - exact) / exact).toBeLessThan(0.15);
    }
  });
});

describe("choosePromptForm", () => {
  it("auto: every declaration within the budget, tool search past it, each with its reason in words", () => {
    const small = createToolCatalog(reference.slice(2, 3)).declarations.text;
    expect(choosePromptForm(small, "auto", 4_000)).toEqual({
      mode: "declarations",
      why: `Every declaration: the declarations take about ${estimateTokens(small)} tokens, within the budget of 4\u00a0000.`,
      declarationTokens: estimateTokens(small),
      budgetTokens: 4_000,
    });
    const large = createToolCatalog(syntheticCatalog(300, 12)).declarations.text;
    const form = choosePromptForm(large, "auto", 4_000);
    expect(form.mode).toBe("search");
    expect(form.why).toMatch(/^Tool search: the declarations take about \d+\u00a0\d{3} tokens, over the budget of 4\u00a0000\.$/);
    expect(choosePromptForm(large, "auto", 1_000_000).mode).toBe("declarations");
  });

  it("a pinned form holds whatever the size, and says so", () => {
    const large = createToolCatalog(syntheticCatalog(300, 12)).declarations.text;
    expect(choosePromptForm(large, "declarations")).toMatchObject({
      mode: "declarations",
      why: expect.stringMatching(/^Every declaration is pinned on/) as unknown,
    });
    expect(choosePromptForm("", "search")).toMatchObject({ mode: "search", why: "Tool search is pinned on (the declarations take about 0 tokens)." });
  });

  it("the two forms' prompts: every declaration, or the namespaces and search_tools without a declaration", () => {
    const catalog = createToolCatalog(syntheticCatalog(300, 12));
    expect(catalog.systemPrompt("declarations")).toContain("declare namespace");
    const search = catalog.systemPrompt("search");
    expect(search).not.toContain("declare namespace");
    expect(search).toContain("search_tools");
    for (const server of catalog.servers) expect(search).toContain(server.name);
    expect(estimateTokens(search)).toBeLessThan(estimateTokens(catalog.systemPrompt("declarations")) / 10);
  });
});
