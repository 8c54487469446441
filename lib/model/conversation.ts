/**
 * Pure edits of a chat's UI messages that the browser makes around the loop: closing tool
 * calls that will never be answered (after Stop), and dropping a failed step before a retry
 * so nothing the model already did is lost or sent twice.
 */
import { isToolUIPart } from "./ui-parts";
import type { UIMessage } from "ai";

/** The text the model is given for a tool call the person stopped. */
export const STOPPED_TOOL_CALL = "Stopped by the person before a result was available.";

/** Marks the last assistant message's unanswered tool calls as failed, so the history stays valid for every provider. */
export function cancelPendingToolCalls<M extends UIMessage>(messages: readonly M[], errorText: string = STOPPED_TOOL_CALL): M[] {
  const last = messages.at(-1);
  if (!last || last.role !== "assistant") return [...messages];
  let changed = false;
  const parts = last.parts.map((part) => {
    if (!isToolUIPart(part) || part.providerExecuted || (part.state !== "input-streaming" && part.state !== "input-available")) return part;
    changed = true;
    // The same shape useChat's addToolOutput gives an errored call.
    return { ...part, state: "output-error", input: part.input, output: undefined, errorText } as unknown as typeof part;
  });
  return changed ? [...messages.slice(0, -1), { ...last, parts }] : [...messages];
}

/**
 * Before a retry: removes the trailing step of the last assistant message when it holds no
 * tool call (the step that failed, or a partial answer), and the message itself when nothing
 * else is left. Earlier steps, with their code and results, stay.
 */
export function dropFailedStep<M extends UIMessage>(messages: readonly M[]): M[] {
  const last = messages.at(-1);
  if (!last || last.role !== "assistant") return [...messages];
  const start = last.parts.findLastIndex((p) => p.type === "step-start");
  const tail = last.parts.slice(start + 1);
  if (tail.some(isToolUIPart)) return [...messages];
  const kept = last.parts.slice(0, Math.max(0, start));
  const meaningful = kept.some((p) => p.type !== "step-start");
  return meaningful ? [...messages.slice(0, -1), { ...last, parts: kept }] : messages.slice(0, -1);
}

/** The last user message and its text, if any. */
export function lastUserMessage<M extends UIMessage>(messages: readonly M[]): { message: M; text: string } | undefined {
  const message = messages.findLast((m) => m.role === "user");
  if (!message) return undefined;
  return { message, text: message.parts.map((p) => (p.type === "text" ? p.text : "")).join("") };
}
