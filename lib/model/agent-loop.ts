/**
 * The client-side tool loop without React: stream a step, answer its tool calls, decide,
 * repeat. The browser runs the same pieces through useChat (chat-stream.ts on the server,
 * tool-handler.ts and loop-policy.ts in the hook); this drives them in Node, for tests and
 * scripts, reading the stream with the AI SDK's own UI message reader.
 */
import { isToolUIPart, readUIMessageStream } from "ai";
import type { UIMessageChunk } from "ai";
import type { PromptMode } from "../codemode/system-prompt";
import { streamChat } from "./chat-stream";
import { decideNext, lastStepParts, type LoopDecision, type LoopPolicy } from "./loop-policy";
import type { ResolvedModel } from "./provider-registry";
import { answerToolCall, type ToolCallAnswer, type ToolHandlers } from "./tool-handler";
import type { CodeModeUIMessage, InspectorStep } from "./types";

/** What a loop run needs. */
export interface AgentLoopOptions {
  model: ResolvedModel;
  instructions: string;
  mode: PromptMode;
  settings?: { temperature?: number; maxOutputTokens?: number };
  /** The conversation so far, usually ending with the new user message. */
  messages: CodeModeUIMessage[];
  handlers: ToolHandlers;
  policy: LoopPolicy;
  stepMode?: boolean;
  abortSignal?: AbortSignal;
}

/** How a loop run ended. */
export interface AgentLoopResult {
  messages: CodeModeUIMessage[];
  /** The last decision (done, max-steps, returned-directly), or an error. */
  stop: LoopDecision | { kind: "error"; message: string };
  /** Inspector records of every model call, in order. */
  steps: InspectorStep[];
}

type ToolPart = Extract<CodeModeUIMessage["parts"][number], { toolCallId: string }>;

function withAnswer(part: ToolPart, answer: ToolCallAnswer): ToolPart {
  // The same update useChat's addToolOutput makes.
  return (
    answer.state === "output-available"
      ? { ...part, state: "output-available", output: answer.output, errorText: undefined }
      : { ...part, state: "output-error", output: undefined, errorText: answer.errorText }
  ) as ToolPart;
}

/** Answers every tool call of the message's last step that is still waiting. */
async function answerPending(message: CodeModeUIMessage, options: AgentLoopOptions): Promise<CodeModeUIMessage> {
  const pending = lastStepParts(message).filter((p): p is ToolPart => isToolUIPart(p) && p.state === "input-available");
  if (pending.length === 0) return message;
  const answers = new Map(
    await Promise.all(
      pending.map(async (p) => {
        const toolName = p.type === "dynamic-tool" ? p.toolName : p.type.slice("tool-".length);
        const answer = await answerToolCall({ toolCallId: p.toolCallId, toolName, input: p.input }, options.handlers, { stepMode: options.stepMode === true });
        return [p.toolCallId, answer] as const;
      }),
    ),
  );
  return {
    ...message,
    parts: message.parts.map((p) => {
      const answer = isToolUIPart(p) ? answers.get(p.toolCallId) : undefined;
      return answer ? withAnswer(p as ToolPart, answer) : p;
    }),
  };
}

/** Runs the loop until the model answers, a limit stops it, or a call fails. */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  let messages = [...options.messages];
  const steps: InspectorStep[] = [];
  for (;;) {
    let failure: string | undefined;
    // Take the transient parts (inspector records) and errors off the stream, as useChat's onData and onError do.
    const tap = new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        if (chunk.type === "data-inspector") steps.push(chunk.data as InspectorStep);
        else if (chunk.type === "error") failure = chunk.errorText;
        else controller.enqueue(chunk);
      },
    });
    const stream = streamChat({ ...options, messages }).pipeThrough(tap);
    const previous = messages.at(-1);
    const continuing = previous?.role === "assistant" ? previous : undefined;
    let latest: CodeModeUIMessage | undefined;
    for await (const snapshot of readUIMessageStream<CodeModeUIMessage>({ stream, ...(continuing ? { message: continuing } : {}) })) latest = snapshot;
    if (latest) messages = continuing ? [...messages.slice(0, -1), latest] : [...messages, latest];
    if (failure !== undefined) return { messages, stop: { kind: "error", message: failure }, steps };
    const last = messages.at(-1);
    if (last?.role === "assistant") messages = [...messages.slice(0, -1), await answerPending(last, options)];
    const decision = decideNext(messages, options.policy);
    if (decision.kind !== "continue") return { messages, stop: decision, steps };
  }
}
