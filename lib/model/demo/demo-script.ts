/**
 * What the offline demo model knows: for each demo example prompt, a good program (parallel
 * calls where they are independent) and a way to summarise the program's real value.
 * Prompts are matched by normalised text, so a retyped prompt with other quotes, case or
 * spacing still matches.
 */
import { DEMO_SERVERS_INFO, type DemoServerName } from "../../demo-servers/catalog";

/** One scripted example. */
export interface DemoScript {
  /** The server it needs (a demo server, or one of the large catalog). */
  server: string;
  /** The namespaces its program uses (default: the demo servers). */
  namespaces?: readonly string[];
  /** The example prompt, exactly as the catalog lists it. */
  prompt: string;
  /** What the model says before sending the code. */
  intro: string;
  /** Keywords for search_tools in search mode. */
  searchQuery: string;
  /** The program, as the model would write it. */
  code: string;
  /** Markdown answer built from the run's value. */
  summarise(value: unknown): string;
  /** What to say when its server is not offered (default: enable the server). */
  notOffered?: string;
}

/** The catalog's example prompt `index` of `server`; throws when the catalog changed shape. */
export function examplePrompt(server: DemoServerName, index: number): string {
  const prompt = DEMO_SERVERS_INFO.find((s) => s.name === server)?.examplePrompts[index];
  if (prompt === undefined) throw new Error(`The demo catalog has no example prompt ${index} for ${server}`);
  return prompt;
}

/** Lowercase, typographic quotes and × folded, punctuation and spacing collapsed. */
export function normalisePrompt(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[“”„"«»]/g, '"')
    .replace(/[‘’`]/g, "'")
    .replace(/×/g, "x")
    .replace(/[^\p{L}\p{N}"'.]+/gu, " ")
    .replace(/\.(\s|$)/g, "$1")
    .trim();
}
