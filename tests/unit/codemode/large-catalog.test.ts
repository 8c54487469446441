/**
 * The large catalog (real public servers' schemas, tests/fixtures/schemas/catalog/): it is as
 * large as the issue asks, the generator and the lint take every schema in it, and at the
 * default budget code mode gives the model tool search, whose prompt is a small part of what
 * classic tool calling sends with every tool.
 */
import { describe, expect, it } from "vitest";
import { choosePromptForm, createToolCatalog } from "@/lib/codemode";
import { countTokens } from "@/lib/codemode/tokens";
import { largeCatalog } from "../../fixtures/schemas/large-catalog";

const servers = largeCatalog();
const catalog = createToolCatalog(servers);

describe("the large catalog", () => {
  it("holds at least 300 tools over at least 12 servers, each from a named package and version", () => {
    expect(servers.length).toBeGreaterThanOrEqual(12);
    expect(servers.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(300);
    for (const server of servers) {
      expect(server.tools.length, server.name).toBeGreaterThan(0);
      expect(server.source.package, server.name).not.toBe("");
    }
  });

  it("every tool gets a declaration and a classic tool, and the search finds tools across servers", () => {
    const toolCount = servers.reduce((n, s) => n + s.tools.length, 0);
    expect(catalog.classicTools).toHaveLength(toolCount);
    expect(catalog.declarations.namespaces).toHaveLength(servers.length);
    for (const server of servers)
      expect(catalog.declarations.text).toContain(`declare namespace ${catalog.declarations.namespaces.find((n) => n.server === server.name)?.namespace}`);
    expect(catalog.search.search("create a pull request", 5).text).toContain("create_pull_request");
    expect(catalog.search.search("take a screenshot of the page", 5).text).toMatch(/screenshot/);
    expect(Array.isArray(catalog.lint)).toBe(true);
  });

  it("at the default budget code mode searches, and its prompt is under a tenth of classic's tools", () => {
    const form = choosePromptForm(catalog.declarations.text);
    expect(form.mode).toBe("search");
    const searchPrompt = countTokens(catalog.systemPrompt("search"));
    const classicTools = countTokens(JSON.stringify(catalog.classicTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))));
    expect(searchPrompt * 10).toBeLessThan(classicTools);
  });
});
