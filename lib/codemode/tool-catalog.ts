/**
 * Everything the model and a program need to know about a set of connected servers, built once
 * per set: the typed API, the system prompt for each mode, the tool search, the tools as classic
 * tools, and the schema lint. The page, the headless runner and the code-mode server build the
 * same thing from the same servers (docs/page-state.md, "One tool world"). Pure.
 */
import { classicSearchPrompt, classicSearchText, classicTools, type ClassicTool } from "./classic-tools";
import { generateDeclarations } from "./declarations";
import { lintTools, type LintFinding } from "./schema-lint";
import { buildSystemPrompt, type PromptMode } from "./system-prompt";
import { createToolSearch, type ToolSearch } from "./tool-search";
import type { Declarations, ServerTools } from "./types";

export interface ToolCatalog {
  /** The connected servers' names and tools, in order. */
  readonly servers: readonly ServerTools[];
  readonly declarations: Declarations;
  /** The generated system prompt for a mode (each built once, when first asked). */
  systemPrompt(mode?: PromptMode): string;
  readonly search: ToolSearch;
  /** Every tool as a classic tool (classic mode offers these). */
  readonly classicTools: readonly ClassicTool[];
  /** Classic with tool search: the best matches for a query, as classic tools to load, and what the model reads of them. */
  classicSearch(query: string, limit?: number): { tools: string[]; text: string };
  /** The system prompt of classic with tool search (the servers, and that tools load on demand). */
  readonly classicSearchPrompt: string;
  /** What the schema lint finds (computed when first read). */
  readonly lint: readonly LintFinding[];
}

/** The catalog of `servers`. */
export function createToolCatalog(servers: readonly ServerTools[], options: { markApps?: boolean } = {}): ToolCatalog {
  const declarations = generateDeclarations(servers, { markApps: options.markApps ?? false });
  const prompts = new Map<PromptMode, string>();
  let lint: readonly LintFinding[] | undefined;
  let classic: readonly ClassicTool[] | undefined;
  let searchPrompt: string | undefined;
  const search = createToolSearch(servers, declarations);
  let byFunction: Map<string, ClassicTool> | undefined;
  return {
    servers,
    declarations,
    systemPrompt(mode = "declarations") {
      let prompt = prompts.get(mode);
      if (prompt === undefined) prompts.set(mode, (prompt = buildSystemPrompt(declarations, mode)));
      return prompt;
    },
    search,
    get classicTools() {
      return (classic ??= classicTools(servers));
    },
    classicSearch(query, limit = 5) {
      byFunction ??= new Map((classic ??= classicTools(servers)).map((t) => [`${t.namespace}\u0000${t.fn}`, t]));
      const found = search.search(query, limit).hits.flatMap((hit) => {
        const tool = byFunction!.get(`${hit.namespace}\u0000${hit.name}`);
        return tool ? [tool] : [];
      });
      return { tools: found.map((t) => t.name), text: classicSearchText(found) };
    },
    get classicSearchPrompt() {
      return (searchPrompt ??= classicSearchPrompt(declarations.namespaces));
    },
    get lint() {
      return (lint ??= lintTools(servers));
    },
  };
}
