/** Tool search over a catalog: ranking on real schemas, results as declarations. */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { createToolSearch, tokenize } from "../../../lib/codemode/tool-search";
import { syntheticCatalog } from "../../fixtures/schemas/synthetic-catalog";
import { loadCorpus } from "./helpers";

const corpus = loadCorpus();
const search = createToolSearch(corpus, generateDeclarations(corpus));
const top = (query: string, limit = 3) => search.search(query, limit).hits.map((h) => `${h.namespace}.${h.name}`);

describe("tokenize", () => {
  it("splits snake, kebab and camel case", () => {
    expect(tokenize("get_quote get-quote getQuote HTTPServer v2Api")).toEqual(["get", "quote", "get", "quote", "get", "Quote", "HTTP", "Server", "v2", "Api"]);
  });
});

describe("createToolSearch", () => {
  it("indexes every tool", () => {
    expect(search.size).toBe(37);
  });

  it("finds tools by name, description and property names", () => {
    expect(top("read file")).toEqual(["filesystem.read_file", "filesystem.read_text_file", "filesystem.read_media_file"]);
    expect(top("knowledge graph entities", 2)).toEqual(["memory.create_entities", "memory.delete_entities"]);
    expect(top("echo")).toEqual(["everything.echo"]);
    // "thoughtNumber" is a property of sequentialthinking, split at its camel hump.
    expect(top("thought number", 1)).toEqual(["sequential_thinking.sequentialthinking"]);
    expect(top("sum numbers", 1)).toEqual(["everything.get_sum"]);
  });

  it("tolerates typos and prefixes", () => {
    expect(top("nodez", 2)).toEqual(["memory.open_nodes", "memory.search_nodes"]);
    // Both name observations and carry an `observations` property: their order is the scorer's call.
    expect(top("observ", 2).sort()).toEqual(["memory.add_observations", "memory.delete_observations"]);
  });

  it("returns the hits' declarations with the shared types they need", () => {
    const result = search.search("open nodes", 1);
    expect(result.hits).toEqual([{ server: "memory", namespace: "memory", tool: "open_nodes", name: "open_nodes", score: expect.any(Number) as number }]);
    expect(result.text.startsWith("declare namespace memory{\ntype Entity={")).toBe(true);
    expect(result.text).toContain("type EntitiesRelations={entities:Entity[];relations:Relation[]}");
    expect(result.text).toContain("function open_nodes(input:{");
    expect(result.text).not.toContain("function search_nodes");
  });

  it("gives nothing for a query that matches nothing, or a zero limit", () => {
    expect(search.search("zzzz qqqq")).toEqual({ hits: [], text: "" });
    expect(search.search("read", 0)).toEqual({ hits: [], text: "" });
  });

  it("ranks the same way every time", () => {
    const big = syntheticCatalog(1000);
    const a = createToolSearch(big, generateDeclarations(big));
    const b = createToolSearch(big, generateDeclarations(big));
    expect(a.size).toBe(1000);
    expect(b.search("order", 10)).toEqual(a.search("order", 10));
    expect(a.search("order", 10).hits).toHaveLength(10);
  });
});
