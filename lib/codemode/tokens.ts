/**
 * Token counts for the tool API: per tool declaration, per namespace, for the whole prompt.
 * gpt-tokenizer's o200k_base (the GPT-4o / GPT-5 family encoding) is the estimate for every
 * model: other providers tokenise differently, so the UI must label these as estimates.
 * The encoder's tables are large (about 2 MB): import this module lazily in the browser.
 */
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import type { Declarations } from "./types";

/** The encoding every count here uses, for the label next to the figure. */
export const TOKEN_ENCODING = "o200k_base";

/** Estimated tokens of a text (o200k_base). */
export function countTokens(text: string): number {
  return countO200k(text);
}

/** Token estimates for a set of declarations and, optionally, the prompt built from them. */
export interface TokenReport {
  encoding: typeof TOKEN_ENCODING;
  /** Always true: a reminder to say "about" in the UI. */
  estimate: true;
  /** Whole system prompt, when one was given; else the whole declaration text. */
  total: number;
  namespaces: Array<{
    server: string;
    namespace: string;
    /** The whole `declare namespace` block. */
    tokens: number;
    /** Its shared type declarations together. */
    sharedTypes: number;
    tools: Array<{
      tool: string;
      name: string;
      /** The tool's own JSDoc and signature, without the shared types. */
      tokens: number;
      /** What a tool search returns for it alone: namespace wrapper and needed types included. */
      standalone: number;
    }>;
  }>;
}

/** Counts tokens per tool, per namespace, and for the prompt (or all declarations). */
export function tokenReport(declarations: Declarations, systemPrompt?: string): TokenReport {
  return {
    encoding: TOKEN_ENCODING,
    estimate: true,
    total: countTokens(systemPrompt ?? declarations.text),
    namespaces: declarations.namespaces.map((ns) => {
      const typeText = new Map(ns.types.map((t) => [t.name, t.text]));
      return {
        server: ns.server,
        namespace: ns.namespace,
        tokens: countTokens(ns.text),
        sharedTypes: countTokens(ns.types.map((t) => t.text).join("\n")),
        tools: ns.tools.map((tool) => {
          const standalone = [`declare namespace ${ns.namespace}{`, ...tool.types.map((name) => typeText.get(name) ?? ""), tool.text, "}"];
          return { tool: tool.tool, name: tool.name, tokens: countTokens(tool.text), standalone: countTokens(standalone.join("\n")) };
        }),
      };
    }),
  };
}
