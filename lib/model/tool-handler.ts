/**
 * Answers one client-side tool call: validates the input, asks for approval in step mode,
 * runs the code (or searches) through functions the host provides, and shapes the answer.
 * The browser hook and the Node agent loop both call this, so the loop the tests drive is
 * the loop people use.
 */
import { errorResult } from "../sandbox/errors";
import { EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL } from "../codemode/system-prompt";
import type { RunResult } from "../sandbox/types";
import { parseExecuteCodeInput, parseSearchToolsInput, runResultToOutput, searchOutput, skippedOutput } from "./tool-output";
import { messageOf } from "../text/error-message";

/** What a person decided in step mode: run (possibly edited) code, or skip it with a message for the model. */
export type CodeApprovalDecision = { action: "run"; code: string } | { action: "skip"; message: string };

/**
 * Code mode (the model writes one program), classic tool calling with every tool offered as a
 * tool, or classic with tool search: definitions deferred until a search_tools call loads them,
 * as Anthropic's tool search does (docs/agent-loop.md, "The agent loop").
 */
export const TOOL_MODES = ["code", "classic", "classic-search"] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** True for both classic modes: the model calls MCP tools as tools, a round per step. */
export const isClassicMode = (mode: ToolMode | undefined): mode is "classic" | "classic-search" => mode === "classic" || mode === "classic-search";

/** How each mode is named in reports and menus. */
export const TOOL_MODE_LABELS: Record<ToolMode, string> = { code: "code mode", classic: "classic", "classic-search": "classic + tool search" };

/**
 * The handlers a tool mode answers with, the one place this rule lives: classic mode answers
 * ordinary tool calls (`callTools`); classic with tool search also answers search_tools, with
 * tools to load rather than declarations; code mode offers only execute_code and search_tools,
 * so any other tool call is an error for the model.
 */
export function handlersForMode(mode: ToolMode, handlers: ToolHandlers): ToolHandlers {
  const { callTools, searchClassicTools, ...codeMode } = handlers;
  if (mode === "code") return codeMode;
  if (mode === "classic") return { ...codeMode, ...(callTools ? { callTools } : {}) };
  return { ...codeMode, ...(callTools ? { callTools } : {}), ...(searchClassicTools ? { searchTools: searchClassicTools } : {}) };
}

/** What a search answers: declarations to read (code mode), or tools it loaded and their one-line docs (classic with tool search). */
export type SearchAnswer = string | { text: string; tools: readonly string[] };

/** What the host gives the loop: the sandbox, the tool search and, in step mode, a person. */
export interface ToolHandlers {
  /** Runs the program against the connected servers. Should not throw; a throw is reported as a runtime error. */
  runCode: (code: string, toolCallId: string) => Promise<RunResult>;
  /** Returns the declarations of the best matches for a query (search mode). */
  searchTools: (query: string, limit: number) => SearchAnswer;
  /** Classic with tool search: the best matches as classic tools to load (handlersForMode puts it in searchTools' place). */
  searchClassicTools?: (query: string, limit: number) => SearchAnswer;
  /** Step mode: called before code runs. */
  awaitApproval?: (code: string, toolCallId: string) => Promise<CodeApprovalDecision>;
  /** Classic mode: answers every ordinary tool call of a step together (classic.ts). Without it, only the code-mode tools exist. */
  callTools?: (calls: readonly ToolCallRequest[]) => Promise<ToolCallAnswer[]>;
}

/** One tool call to answer. */
export interface ToolCallRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The answer: an output for the model, or an error text (unknown tool, unusable input). */
export type ToolCallAnswer =
  /** ExecuteCodeOutput, SearchToolsOutput, or a classic tool's unwrapped result (what a program would have received). */
  { state: "output-available"; output: unknown } | { state: "output-error"; errorText: string };

function sandboxFailure(error: unknown): RunResult {
  const message = messageOf(error);
  return errorResult({ kind: "runtime", message: `The sandbox failed: ${message}` });
}

async function answerExecuteCode(call: ToolCallRequest, handlers: ToolHandlers, stepMode: boolean, budget: number | undefined): Promise<ToolCallAnswer> {
  const input = parseExecuteCodeInput(call.input);
  if ("error" in input) return { state: "output-error", errorText: input.error };
  let code = input.code;
  if (stepMode && handlers.awaitApproval) {
    const decision = await handlers.awaitApproval(code, call.toolCallId);
    if (decision.action === "skip") return { state: "output-available", output: skippedOutput(decision.message) };
    code = decision.code;
  }
  const result = await handlers.runCode(code, call.toolCallId).catch(sandboxFailure);
  const output = runResultToOutput(result, budget);
  return { state: "output-available", output: code === input.code || "skipped" in output ? output : { ...output, editedCode: code } };
}

/** Answers a tool call; never throws. `stepMode` asks `awaitApproval` before code runs. */
export async function answerToolCall(
  call: ToolCallRequest,
  handlers: ToolHandlers,
  options: { stepMode?: boolean; resultBudgetTokens?: number } = {},
): Promise<ToolCallAnswer> {
  try {
    if (call.toolName === EXECUTE_CODE_TOOL) return await answerExecuteCode(call, handlers, options.stepMode === true, options.resultBudgetTokens);
    if (call.toolName === SEARCH_TOOLS_TOOL) {
      const input = parseSearchToolsInput(call.input);
      if ("error" in input) return { state: "output-error", errorText: input.error };
      return { state: "output-available", output: searchOutput(handlers.searchTools(input.query, input.limit)) };
    }
    return { state: "output-error", errorText: `There is no tool "${call.toolName}". Use ${EXECUTE_CODE_TOOL} to run code that calls the API.` };
  } catch (error) {
    // An approval prompt or a search that throws must still answer the call, or the loop hangs.
    return { state: "output-error", errorText: `The tool call could not be answered: ${messageOf(error)}` };
  }
}
