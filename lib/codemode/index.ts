/**
 * The code-mode tool API in one import. Token counting is deliberately not re-exported:
 * its encoder tables are about 2 MB, so import `./tokens` on its own (lazily in the browser).
 */
export type * from "./types";
export { generateDeclarations, declarationsFor, DEFAULT_GENERATE_OPTIONS, type ToolPick } from "./declarations";
export { resolveNames, sanitiseIdentifier, type ResolvedNames } from "./names";
export { createToolSearch, type ToolSearch, type ToolSearchHit, type ToolSearchResult } from "./tool-search";
export { lintTools, type LintCode, type LintFinding, type LintOptions, type LintSeverity } from "./schema-lint";
export {
  buildSystemPrompt,
  EXECUTE_CODE_TOOL,
  SEARCH_TOOLS_TOOL,
  EXECUTE_CODE_DESCRIPTION,
  SEARCH_TOOLS_DESCRIPTION,
  EXECUTE_CODE_INPUT_SCHEMA,
  SEARCH_TOOLS_INPUT_SCHEMA,
  type PromptMode,
} from "./system-prompt";
export { parseCatalog, type CatalogResult } from "./catalog-input";
export { classicTools, classicToolName, classicProgram, CLASSIC_SYSTEM_PROMPT, type ClassicTool, type ClassicCall, type ClassicOutcome } from "./classic-tools";
export { createToolCatalog, type ToolCatalog } from "./tool-catalog";
export { choosePromptForm, estimateTokens, DEFAULT_DECLARATIONS_BUDGET_TOKENS, DISCOVERY_CHOICES, type DiscoveryChoice, type PromptForm } from "./prompt-form";
export { DISCOVERY_DECLARATION, DISCOVERY_NAMESPACE } from "./discovery-api";
