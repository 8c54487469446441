/**
 * MCP sampling (`sampling/createMessage`) answered by the chat's model: the server's messages
 * become a conversation for one model step with no tools, its system prompt follows a preamble
 * that says what this is, and the streamed text becomes the result the server gets. The page
 * calls this after the person reviewed (and maybe edited) the request, and shows the completion
 * for review before it is sent. Pure; the model step is injected (the page's is POST /api/chat).
 */
import { generateId } from "./ui-parts";
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/client";
import type { ModelStep } from "./agent-loop";
import type { CodeModeUIMessage } from "./types";

/** The first line of every sampling system prompt; the demo model recognises it. */
export const SAMPLING_PREAMBLE = "An MCP server asks you for a completion (MCP sampling). Answer its last message directly; no tools are available.";

/** One message of a sampling request as the person reviews and edits it: text only. */
export interface SamplingMessage {
  role: "user" | "assistant";
  text: string;
}

/** The request's messages as editable text; images and audio are named, since only text is sent. */
export function samplingMessages(params: CreateMessageRequest["params"]): SamplingMessage[] {
  return params.messages.map((message) => {
    const parts = Array.isArray(message.content) ? message.content : [message.content];
    const text = parts.map((part) => (part.type === "text" ? part.text : `[${part.type} omitted: the playground sends text only]`)).join("\n");
    return { role: message.role, text };
  });
}

/** The system prompt of the step: the preamble, then the server's own, if any. */
export function samplingInstructions(serverName: string, systemPrompt: string | undefined): string {
  const own = systemPrompt?.trim();
  return `${SAMPLING_PREAMBLE}\nThe server is "${serverName}".${own ? `\n\n${own}` : ""}`;
}

/** Runs one model step over the messages and returns its text; rejects with the step's error. */
export async function sampleText(step: ModelStep, messages: readonly SamplingMessage[], signal: AbortSignal): Promise<string> {
  const conversation: CodeModeUIMessage[] = messages.map((m) => ({ id: generateId(), role: m.role, parts: [{ type: "text", text: m.text }] }));
  const stream = await step({ messages: conversation, abortSignal: signal });
  const reader = stream.getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") text += value.delta;
    else if (value.type === "error") throw new Error(value.errorText);
  }
  return text;
}

/** The result the server gets. */
export function samplingResult(text: string, model: string): CreateMessageResult {
  return { role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" };
}
