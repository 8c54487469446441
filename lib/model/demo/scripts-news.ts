/** The demo model's programs and summaries for the news server's example prompts. */
import type { DemoScript } from "./demo-script";
import { examplePrompt } from "./demo-script";
import { excerpt, list, rec, str } from "./demo-format";

const LANGUAGE_NAMES: Record<string, string> = { en: "English", de: "German", fr: "French", es: "Spanish", pt: "Portuguese", ja: "Japanese" };
const languageName = (tag: string) => LANGUAGE_NAMES[tag] ?? tag;

const electionsByLanguage = `// One search per region, all at once.
const regions = ["us", "gb", "de", "fr", "es", "br", "jp", "in"] as const;
const searches = await Promise.all(regions.map((region) => news.web_search({ query: "elections", region, limit: 5 })));
const byLanguage = {};
for (const { results } of searches) {
  for (const story of results) {
    (byLanguage[story.language] ??= []).push({ title: story.title, region: story.region, publishedAt: story.publishedAt });
  }
}
return byLanguage;`;

const shippingAndPorts = `// The same question in three languages, searched in parallel; stories found twice are kept once.
const queries = { en: "shipping port", de: "Versand Pakete Hafen", pt: "portos navios exportação" };
const searches = await Promise.all(Object.entries(queries).map(async ([language, query]) => ({
  language,
  results: (await news.web_search({ query, limit: 5 })).results,
})));
const seen = new Set();
const stories = [];
for (const { language, results } of searches) {
  for (const s of results) {
    if (seen.has(s.url)) continue;
    seen.add(s.url);
    stories.push({ foundBy: language, title: s.title, description: s.description, region: s.region, language: s.language, publishedAt: s.publishedAt });
  }
}
return stories;`;

const recentEuropeanSports = `const europe = ["gb", "de", "fr", "es"] as const;
const searches = await Promise.all(europe.map((region) => news.web_search({ query: "sports", region, limit: 10 })));
return searches
  .flatMap((s) => s.results)
  .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))
  .slice(0, 3)
  .map((s) => ({ title: s.title, region: s.region, publishedAt: s.publishedAt, url: s.url }));`;

/** Scripts for the news example prompts, in catalog order. */
export const NEWS_SCRIPTS: readonly DemoScript[] = [
  {
    server: "news",
    prompt: examplePrompt("news", 0),
    intro: "I'll search every region for elections in parallel and group what comes back by language.",
    searchQuery: "news search region",
    code: electionsByLanguage,
    summarise(value) {
      const groups = Object.entries(rec(value));
      if (groups.length === 0) return "The searches found no election stories.";
      const total = groups.reduce((n, [, stories]) => n + list(stories).length, 0);
      const sections = groups.map(([language, stories]) => {
        const lines = list(stories).map((s) => `- ${str(rec(s).title)} (${str(rec(s).region).toUpperCase()}, ${str(rec(s).publishedAt)})`);
        return `**${languageName(language)}**\n${lines.join("\n")}`;
      });
      return `I found ${total} election stories in ${groups.length} languages:\n\n${sections.join("\n\n")}`;
    },
  },
  {
    server: "news",
    prompt: examplePrompt("news", 1),
    intro: "I'll run the English, German and Portuguese searches in parallel and merge the results.",
    searchQuery: "news search",
    code: shippingAndPorts,
    summarise(value) {
      const stories = list(value).map(rec);
      if (stories.length === 0) return `The three searches found nothing about shipping and ports.\n\n${excerpt(value)}`;
      const lines = stories.map((s) => `- **${str(s.title)}** (${languageName(str(s.language))}, ${str(s.publishedAt)}): ${str(s.description)}`);
      return `Here is what the news says about shipping and ports (${stories.length} stories across the three searches):\n\n${lines.join("\n")}`;
    },
  },
  {
    server: "news",
    prompt: examplePrompt("news", 2),
    intro: "I'll search the European regions for sports in parallel and keep the three newest stories.",
    searchQuery: "news search region",
    code: recentEuropeanSports,
    summarise(value) {
      const stories = list(value).map(rec);
      if (stories.length === 0) return "No sports stories from Europe turned up.";
      const lines = stories.map((s, i) => `${i + 1}. **${str(s.title)}** (${str(s.region).toUpperCase()}, ${str(s.publishedAt)})`);
      return `The ${stories.length} most recent sports stories from Europe:\n\n${lines.join("\n")}`;
    },
  },
];
