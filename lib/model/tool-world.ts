/**
 * One tool world: what the agent loop needs of the connected servers, in any host
 * (docs/page-state.md, "One tool world"). The host brings a catalog and a way to run a program;
 * the handlers for both tool modes are built here, once: a program runs through `runCode`, a
 * classic round is a generated program through the same `runCode` (so classic calls pass the
 * same host functions), tool search (code mode's and classic's) reads the catalog. `handlersForMode` then picks a mode's.
 */
import type { ToolCatalog } from "../codemode/tool-catalog";
import { classicCallsHandler } from "./classic";
import type { CodeApprovalDecision, ToolHandlers, ToolMode } from "./tool-handler";
import { CLASSIC_SYSTEM_PROMPT } from "../codemode/classic-tools";
import { declarationsForPrompt } from "../codemode/prompt-declarations";
import type { RunResult } from "../sandbox/types";

/** Connected servers as the agent loop sees them. */
export interface ToolWorld {
  readonly catalog: ToolCatalog;
  /** Every handler; pass them through `handlersForMode` for a mode's. */
  readonly handlers: Required<Pick<ToolHandlers, "runCode" | "searchTools" | "searchClassicTools" | "callTools">> & Pick<ToolHandlers, "awaitApproval">;
}

/** How a host runs things. */
export interface WorldHost {
  /** Runs a program the model wrote (execute_code). */
  runCode: (code: string, toolCallId: string) => Promise<RunResult>;
  /** Runs a classic round's generated program (default: runCode). */
  runClassic?: (code: string, toolCallId: string) => Promise<RunResult>;
  /** Step mode: a person decides before the model's code runs. */
  awaitApproval?: (code: string, toolCallId: string) => Promise<CodeApprovalDecision>;
}

/** The tool world of a catalog in a host. */
export function createToolWorld(catalog: ToolCatalog, host: WorldHost): ToolWorld {
  return {
    catalog,
    handlers: {
      runCode: host.runCode,
      searchTools: (query, limit) => declarationsForPrompt(catalog.search.search(query, limit).text),
      searchClassicTools: (query, limit) => catalog.classicSearch(query, limit),
      callTools: classicCallsHandler(catalog.classicTools, host.runClassic ?? host.runCode),
      ...(host.awaitApproval ? { awaitApproval: host.awaitApproval } : {}),
    },
  };
}

/**
 * The system prompt of a tool mode over a catalog: code mode's (the generated one for its form,
 * or the person's edit, passed in as `codePrompt`), classic's, or classic with tool search's.
 */
export function modeInstructions(toolMode: ToolMode, catalog: ToolCatalog, codePrompt: string): string {
  if (toolMode === "classic") return CLASSIC_SYSTEM_PROMPT;
  if (toolMode === "classic-search") return catalog.classicSearchPrompt;
  return codePrompt;
}
