/**
 * Two predicates over the AI SDK's UI messages, as the SDK defines them (`isToolUIPart`,
 * `lastAssistantMessageIsCompleteWithToolCalls` in "ai"), for the code that runs with the page's
 * first screen. "ai" is one module, so importing either from it would load the SDK's whole UI
 * stream with the page (docs/speed.md, "The page's start"); the model's stream loads
 * with the first message instead (./ui-stream-loader.ts). A unit test holds these to the SDK's
 * answers. Pure.
 */
import type { DynamicToolUIPart, ToolUIPart, UIDataTypes, UIMessage, UIMessagePart, UITools } from "ai";

/** Whether `part` is a tool call, static (`tool-<name>`) or dynamic. */
export function isToolUIPart<TOOLS extends UITools>(part: UIMessagePart<UIDataTypes, TOOLS>): part is ToolUIPart<TOOLS> | DynamicToolUIPart {
  return part.type.startsWith("tool-") || part.type === "dynamic-tool";
}

/**
 * Whether the last message is the assistant's and every tool call of its last step (those the
 * client runs) has its answer, with no text still streaming after the last of them.
 */
export function lastAssistantMessageIsCompleteWithToolCalls({ messages }: { messages: UIMessage[] }): boolean {
  const message = messages.at(-1);
  if (message?.role !== "assistant") return false;
  const stepStart = message.parts.findLastIndex((part) => part.type === "step-start");
  const step = message.parts.slice(stepStart + 1);
  const calls = step.filter(isToolUIPart).filter((part) => !part.providerExecuted);
  const lastCall = step.findLastIndex((part) => isToolUIPart(part) && !part.providerExecuted);
  return (
    calls.length > 0 &&
    !step.slice(lastCall + 1).some((part) => part.type === "text" && part.state !== "done") &&
    calls.every((part) => (part.state === "output-available" && part.preliminary !== true) || part.state === "output-error")
  );
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A message or chat id as the SDK's `generateId` makes them: 16 random letters and digits. */
export function generateId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // `byte % 62` favours the first eight characters a little (256 = 4 × 62 + 8): ids must be unique, not uniform.
  return Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}
