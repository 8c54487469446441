/**
 * Everything the model and a program need to know about a set of connected servers, built once
 * per set: the typed API, the system prompt for each mode, the tool search, the tools as classic
 * tools, and the schema lint. The page, the headless runner and the code-mode server build the
 * same thing from the same servers (docs/ARCHITECTURE.md, "One tool world"). Pure.
 */
import { classicTools, type ClassicTool } from "./classic-tools";
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
  /** What the schema lint finds (computed when first read). */
  readonly lint: readonly LintFinding[];
}

/** The catalog of `servers`. */
export function createToolCatalog(servers: readonly ServerTools[]): ToolCatalog {
  const declarations = generateDeclarations(servers);
  const prompts = new Map<PromptMode, string>();
  let lint: readonly LintFinding[] | undefined;
  let classic: readonly ClassicTool[] | undefined;
  return {
    servers,
    declarations,
    systemPrompt(mode = "declarations") {
      let prompt = prompts.get(mode);
      if (prompt === undefined) prompts.set(mode, (prompt = buildSystemPrompt(declarations, mode)));
      return prompt;
    },
    search: createToolSearch(servers, declarations),
    get classicTools() {
      return (classic ??= classicTools(servers));
    },
    get lint() {
      return (lint ??= lintTools(servers));
    },
  };
}
