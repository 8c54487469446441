/**
 * The `news` demo MCP server: web_search over a fixed dataset (news-data.ts).
 * Uses MiniSearch (prefix and light fuzzy matching, accent folding) rather than a hand-made
 * scorer; ties are broken by date and id so the same query always returns the same list.
 */
import { McpServer } from "@modelcontextprotocol/server";
import MiniSearch from "minisearch";
import * as z from "zod";
import { NEWS_ITEMS, NEWS_REGIONS } from "./news-data";
import type { NewsItem } from "./news-data";
import { ok, STATIC_LISTS } from "./result";

const fold = (term: string) => term.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// Built once per process: the dataset never changes.
const index = new MiniSearch<NewsItem>({
  fields: ["title", "description", "topicsText"],
  extractField: (doc, field) => (field === "topicsText" ? doc.topics.join(" ") : String(doc[field as keyof NewsItem])),
  processTerm: fold,
  searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 2, topicsText: 1.5 }, combineWith: "OR" },
});
index.addAll([...NEWS_ITEMS]);
const byId = new Map(NEWS_ITEMS.map((n) => [n.id, n]));

/** Searches the dataset; deterministic order (score, then newest, then id). */
export function searchNews(query: string, region: string | undefined, limit: number): { total: number; results: NewsItem[] } {
  const hits = index
    .search(query, region ? { filter: (r) => byId.get(String(r.id))?.region === region } : {})
    .map((r) => ({ score: Math.round(r.score * 1e6), item: byId.get(String(r.id)) }))
    .filter((h): h is { score: number; item: NewsItem } => h.item !== undefined)
    .sort((a, b) => b.score - a.score || b.item.publishedAt.localeCompare(a.item.publishedAt) || a.item.id.localeCompare(b.item.id));
  return { total: hits.length, results: hits.slice(0, limit).map((h) => h.item) };
}

/** Builds a fresh `news` server. */
export function createNewsServer(): McpServer {
  const server = new McpServer(
    { name: "news", version: "1.0.0", title: "News search (demo)" },
    { instructions: "Searches a fixed set of 40 fictional news stories from eight regions in six languages. Results never change.", cacheHints: STATIC_LISTS },
  );

  server.registerTool(
    "web_search",
    {
      title: "Search the news",
      description:
        'Searches news stories by keywords and returns the best matches, best first. Matches words in titles, descriptions and topics, by prefix and with small typos; accents are ignored. Stories are in English, German, French, Spanish, Portuguese and Japanese: search in the story\'s language or with English topic words such as "elections", "shipping" or "climate".',
      inputSchema: {
        query: z.string().min(1).max(200).describe('Keywords to search for, e.g. "port strike" or "élections".'),
        region: z
          .enum(NEWS_REGIONS)
          .optional()
          .describe("Only return stories from this region: us, gb, de, fr, es, br, jp or in. Omit to search every region."),
        limit: z.number().int().min(1).max(20).default(5).describe("Most results to return (1–20, default 5)."),
      },
      outputSchema: {
        query: z.string().describe("The query as received."),
        total: z.number().int().min(0).max(1000).describe("How many stories matched before `limit` was applied."),
        results: z
          .array(
            z.object({
              title: z.string().describe("Headline."),
              url: z.string().describe("Link to the story."),
              description: z.string().describe("One-sentence summary."),
              region: z.string().describe("Region code of the publication."),
              language: z.string().describe("Language of the story (BCP 47 tag)."),
              publishedAt: z.string().describe("Publication date, ISO 8601 (YYYY-MM-DD)."),
            }),
          )
          .describe("Matching stories, best match first."),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ query, region, limit }) => {
      const { total, results } = searchNews(query, region, limit);
      return ok({
        query,
        total,
        results: results.map(({ title, url, description, region: r, language, publishedAt }) => ({
          title,
          url,
          description,
          region: r,
          language,
          publishedAt,
        })),
      });
    },
  );

  return server;
}
