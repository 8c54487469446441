import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_ITEMS, NEWS_REGIONS } from "@/lib/demo-servers/news-data";
import { connectClient } from "../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { checked } from "../../fixtures/mcp/tools";
import type { CheckedClient } from "../../fixtures/mcp/tools";

interface SearchResult {
  query: string;
  total: number;
  results: Array<{ title: string; url: string; description: string; region: string; language: string; publishedAt: string }>;
}

let host: Awaited<ReturnType<typeof startDemoHost>>;
let s: CheckedClient;
beforeAll(async () => {
  host = await startDemoHost();
  s = await checked(await connectClient(host.urlFor("news")));
});
afterAll(async () => {
  await s.client.close();
  await host.close();
});

describe("news dataset", () => {
  it("holds about 40 stories across regions and languages, with unique ids", () => {
    expect(NEWS_ITEMS.length).toBe(40);
    expect(new Set(NEWS_ITEMS.map((n) => n.id)).size).toBe(40);
    expect(new Set(NEWS_ITEMS.map((n) => n.region))).toEqual(new Set(NEWS_REGIONS));
    expect(new Set(NEWS_ITEMS.map((n) => n.language)).size).toBeGreaterThanOrEqual(5);
  });
});

describe("news web_search", () => {
  it("finds stories by keyword, best first, with five results by default", async () => {
    const out = await s.call<SearchResult>("web_search", { query: "elections" });
    expect(out.total).toBeGreaterThan(5);
    expect(out.results).toHaveLength(5);
    expect(out.results[0]?.title.toLowerCase()).toMatch(/election|élection|eleicoes|eleições|elecciones|wahl/);
  });

  it("filters by region and respects the limit", async () => {
    const out = await s.call<SearchResult>("web_search", { query: "elections", region: "fr", limit: 1 });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ region: "fr", language: "fr" });
    expect(out.results[0]?.url).toMatch(/^https:\/\/fr\.newswire\.example\//);
  });

  it("ignores accents and matches prefixes", async () => {
    const accented = await s.call<SearchResult>("web_search", { query: "élections", region: "fr" });
    const plain = await s.call<SearchResult>("web_search", { query: "elections", region: "fr" });
    expect(accented.results.map((r) => r.url)).toEqual(plain.results.map((r) => r.url));
    expect((await s.call<SearchResult>("web_search", { query: "logist" })).total).toBeGreaterThan(0);
  });

  it("searches Japanese stories through their topic words", async () => {
    const out = await s.call<SearchResult>("web_search", { query: "地震" });
    expect(out.results[0]).toMatchObject({ region: "jp", language: "ja" });
  });

  it("is deterministic and returns an empty list when nothing matches", async () => {
    const a = await s.call<SearchResult>("web_search", { query: "shipping ports", limit: 10 });
    const b = await s.call<SearchResult>("web_search", { query: "shipping ports", limit: 10 });
    expect(a).toEqual(b);
    expect(await s.call<SearchResult>("web_search", { query: "zzzqqq" })).toEqual({ query: "zzzqqq", total: 0, results: [] });
  });

  it("rejects an out-of-range limit and an unknown region", async () => {
    expect(await s.callError("web_search", { query: "x", limit: 50 })).toMatch(/limit/);
    expect(await s.callError("web_search", { query: "x", region: "mars" })).toMatch(/region/);
  });
});
