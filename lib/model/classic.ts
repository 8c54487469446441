/**
 * Answers a round of classic tool calls (see lib/codemode/classic-tools.ts): the calls the
 * model made in one step run together as one generated program in the sandbox, so they pass
 * through the same host functions (validation, approvals, mocks, timeline) as a program's
 * calls; each call gets its own answer. Never throws.
 */
import { classicProgram, type ClassicTool } from "../codemode/classic-tools";
import { errorResult } from "../sandbox/errors";
import type { RunResult } from "../sandbox/types";
import type { ToolCallAnswer, ToolCallRequest } from "./tool-handler";
import { messageOf } from "../text/error-message";
import { isRecord } from "../text/json-value";

/** The handler the agent loop calls with every classic call of a step. */
export type ClassicCallsHandler = (calls: readonly ToolCallRequest[]) => Promise<ToolCallAnswer[]>;

/** A handler over the offered tools and a sandbox runner (`runCode(program, toolCallId)`). */
export function classicCallsHandler(tools: readonly ClassicTool[], runCode: (code: string, toolCallId: string) => Promise<RunResult>): ClassicCallsHandler {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return async (calls) => {
    const answers: ToolCallAnswer[] = calls.map((call) => {
      if (!byName.has(call.toolName)) return { state: "output-error", errorText: `There is no tool "${call.toolName}". Call one of the tools you were given.` };
      if (!isRecord(call.input)) return { state: "output-error", errorText: `The arguments of ${call.toolName} must be a JSON object.` };
      return { state: "output-available", output: undefined };
    });
    const runnable = calls.flatMap((call, i) => (answers[i]?.state === "output-available" ? [{ call, index: i, tool: byName.get(call.toolName)! }] : []));
    if (runnable.length === 0) return answers;
    let result: RunResult;
    try {
      result = await runCode(
        classicProgram(runnable.map(({ call, tool }) => ({ namespace: tool.namespace, fn: tool.fn, args: call.input }))),
        runnable[0]!.call.toolCallId,
      );
    } catch (error) {
      result = errorResult({ kind: "runtime", message: `The sandbox failed: ${messageOf(error)}` });
    }
    const outcomes = result.ok && Array.isArray(result.value) ? (result.value as unknown[]) : undefined;
    runnable.forEach(({ index }, n) => {
      const outcome = outcomes?.[n] as { ok?: unknown; value?: unknown; error?: unknown } | undefined;
      if (!result.ok) answers[index] = { state: "output-error", errorText: `The call could not run (${result.error.kind}): ${result.error.message}` };
      else if (outcome?.ok === true) answers[index] = { state: "output-available", output: outcome.value ?? null };
      else answers[index] = { state: "output-error", errorText: typeof outcome?.error === "string" ? outcome.error : "The call returned nothing." };
    });
    return answers;
  };
}
