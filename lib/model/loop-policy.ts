/**
 * When the client-side tool loop sends the conversation back to the model, and when it stops.
 * One model call is one step (the route runs one step per request, since tools run in the
 * browser); a turn is the assistant message answering one user message. Pure, and used both
 * as useChat's `sendAutomaticallyWhen` and by the Node agent loop.
 */
import { isToolUIPart, lastAssistantMessageIsCompleteWithToolCalls } from "./ui-parts";
import type { UIMessage } from "ai";
import { EXECUTE_CODE_TOOL } from "../codemode/system-prompt";

/** Default cap on model calls per turn. */
export const DEFAULT_MAX_STEPS = 10;

/** The loop's settings. */
export interface LoopPolicy {
  /** Most model calls per turn; a model still calling tools after that is stopped. */
  maxSteps: number;
  /** Show a successful program's value to the person instead of asking the model again. */
  returnDirectly: boolean;
}

/** What to do after the latest change to the conversation. */
export type LoopDecision =
  | { kind: "continue" }
  /** Tool calls still waiting for results, or no assistant message yet. */
  | { kind: "wait" }
  /** The model answered without calling tools. */
  | { kind: "done" }
  | { kind: "max-steps"; steps: number }
  | { kind: "returned-directly"; toolCallIds: string[] };

/** Model calls made so far in an assistant message (one step-start part per call). */
export function stepsIn(message: UIMessage): number {
  return message.parts.filter((p) => p.type === "step-start").length;
}

/** The parts of the message's last step. */
export function lastStepParts(message: UIMessage): UIMessage["parts"] {
  const start = message.parts.findLastIndex((p) => p.type === "step-start");
  return message.parts.slice(start + 1);
}

/** Decides whether to send the conversation back to the model. */
export function decideNext(messages: readonly UIMessage[], policy: LoopPolicy): LoopDecision {
  const last = messages.at(-1);
  if (!last || last.role !== "assistant") return { kind: "wait" };
  const toolParts = lastStepParts(last).filter(isToolUIPart);
  if (toolParts.length === 0) return { kind: "done" };
  if (!lastAssistantMessageIsCompleteWithToolCalls({ messages: messages as UIMessage[] })) return { kind: "wait" };
  if (policy.returnDirectly) {
    const code = toolParts.filter((p) => p.type === `tool-${EXECUTE_CODE_TOOL}`);
    const allOk = code.length > 0 && code.every((p) => p.state === "output-available" && (p.output as { ok?: unknown } | undefined)?.ok === true);
    if (allOk) return { kind: "returned-directly", toolCallIds: code.map((p) => p.toolCallId) };
  }
  const steps = stepsIn(last);
  if (steps >= policy.maxSteps) return { kind: "max-steps", steps };
  return { kind: "continue" };
}

/** The sentence shown when the loop stops by itself, or undefined when there is nothing to say. */
export function stopNotice(decision: LoopDecision): string | undefined {
  if (decision.kind === "max-steps") {
    return `Stopped after ${decision.steps} model ${decision.steps === 1 ? "step" : "steps"} (the max-steps limit): the model was still calling tools. Raise the limit in the settings, or send a message to let it go on.`;
  }
  if (decision.kind === "returned-directly") return "Returned directly: the program's value is shown as the answer, without another model turn.";
  return undefined;
}
