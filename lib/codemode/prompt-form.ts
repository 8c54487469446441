/**
 * Which form of the typed API the model gets (docs/page-state.md, "Discovery"): every
 * declaration, or the namespaces and tool search. The one rule for the page, `npm run agent`,
 * evals and the code-mode MCP server: past a budget of tokens the declarations would take, code
 * mode searches; a person or a config can pin either form. Pure.
 */
import type { PromptMode } from "./system-prompt";
import { groupDigits } from "../text/display";

/** Declaration tokens above which code mode gives the model tool search instead (a setting; this is its default). */
export const DEFAULT_DECLARATIONS_BUDGET_TOKENS = 4_000;

/** How the form is chosen: by the budget ("auto"), or pinned. */
export const DISCOVERY_CHOICES = ["auto", "declarations", "search"] as const;
export type DiscoveryChoice = (typeof DISCOVERY_CHOICES)[number];

/**
 * Characters per o200k token in generated declarations: 4.0 on the demo servers, 4.7 to 5.0 on
 * the reference servers (tests/unit/codemode/prompt-form.test.ts measures them and holds the
 * estimate within 15 % of each). An estimate keeps the 2 MB tokenizer off the page's path: the
 * switch needs the size, not the exact count.
 */
export const CHARS_PER_TOKEN = 4.4;

/** Tokens a text takes, estimated from its length. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The form a request uses, and why, in words for the request inspector. */
export interface PromptForm {
  mode: PromptMode;
  why: string;
  /** Estimated tokens of every declaration. */
  declarationTokens: number;
  budgetTokens: number;
}

/** 12 400 with a no-break space, so a figure never wraps inside itself. */
const thousands = (n: number) => groupDigits(n, "\u00a0");

/** Chooses the form for declarations of `declarationsText`. */
export function choosePromptForm(declarationsText: string, choice: DiscoveryChoice = "auto", budgetTokens = DEFAULT_DECLARATIONS_BUDGET_TOKENS): PromptForm {
  const declarationTokens = estimateTokens(declarationsText);
  const size = `the declarations take about ${thousands(declarationTokens)} tokens`;
  const base = { declarationTokens, budgetTokens };
  if (choice === "search") return { ...base, mode: "search", why: `Tool search is pinned on (${size}).` };
  if (choice === "declarations") return { ...base, mode: "declarations", why: `Every declaration is pinned on (${size}).` };
  return declarationTokens > budgetTokens
    ? { ...base, mode: "search", why: `Tool search: ${size}, over the budget of ${thousands(budgetTokens)}.` }
    : { ...base, mode: "declarations", why: `Every declaration: ${size}, within the budget of ${thousands(budgetTokens)}.` };
}
