/**
 * The one agent loop: model step → tool calls → sandbox and MCP → results back → next step,
 * until the model answers, the loop policy stops it, a step fails or the caller aborts. The
 * page (through chat-session.ts), the headless Node runner (node/headless-agent.ts) and the
 * tests all drive this function; see docs/agent-loop.md, "The agent loop".
 *
 * Everything that differs between them is injected: the model step (the page: POST /api/chat;
 * Node: the AI SDK provider called directly through chat-stream.ts), the tool handlers (the
 * sandbox and the MCP connections, plus a person in step mode) and observers for progress.
 * Tool calls are answered as soon as their input has streamed, while the rest of the step
 * still streams, as the AI SDK's own chat does.
 */
import { isToolUIPart } from "./ui-parts";
import type { UIMessageChunk } from "ai";
import { errorResult } from "../sandbox/errors";
import { EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL } from "../codemode/system-prompt";
import { chatErrorText } from "./chat-errors";
import { cancelPendingToolCalls } from "./conversation";
import { loadUiStream } from "./ui-stream-loader";
import { decideNext, lastStepParts, type LoopDecision, type LoopPolicy } from "./loop-policy";
import { answerToolCall, type ToolCallAnswer, type ToolHandlers } from "./tool-handler";
import type { CodeModeUIMessage, InspectorStep } from "./types";

/** One model step: the conversation in, its UI message stream out (text, tool calls, inspector records). May throw (an HTTP error). */
export type ModelStep = (request: { messages: CodeModeUIMessage[]; abortSignal: AbortSignal }) => Promise<ReadableStream<UIMessageChunk>>;

/** What a tool call is waiting for. */
export type ToolActivity = "approval" | "running";

/** Progress, for a UI or a log. Observers must not throw. */
export interface AgentLoopObserver {
  /** The conversation after each streamed chunk and each tool answer. */
  onMessages?: (messages: CodeModeUIMessage[]) => void;
  /** A model request went out ("submitted"), or its first chunk arrived ("streaming"). */
  onStatus?: (status: "submitted" | "streaming") => void;
  /** The inspector record of a model call. */
  onInspector?: (step: InspectorStep) => void;
  /** A tool call started waiting (for a person, or for its run), or finished (undefined). */
  onActivity?: (toolCallId: string, activity: ToolActivity | undefined) => void;
  /** The loop stopped by itself after a step (max steps, returned directly). */
  onStop?: (messageId: string, decision: LoopDecision) => void;
}

/** What a loop run needs. */
export interface AgentLoopOptions extends AgentLoopObserver {
  /** The conversation so far: usually ending with the new user message, or with an assistant message to continue. */
  messages: CodeModeUIMessage[];
  modelStep: ModelStep;
  handlers: ToolHandlers;
  policy: LoopPolicy;
  /** Ask `handlers.awaitApproval` before each program runs. */
  stepMode?: boolean;
  /** A program's value over this many tokens reaches the model cut, with a note (result-budget.ts). */
  resultBudgetTokens?: number;
  abortSignal?: AbortSignal;
}

/** Why a loop run ended. */
export type AgentLoopStop = Exclude<LoopDecision, { kind: "continue" } | { kind: "wait" }> | { kind: "error"; message: string } | { kind: "stopped" };

/** How a loop run ended. */
export interface AgentLoopResult {
  messages: CodeModeUIMessage[];
  stop: AgentLoopStop;
  /** Inspector records of every model call, in order. */
  steps: InspectorStep[];
}

const STOPPED_RUN = errorResult({ kind: "cancelled", message: "Stopped before the program ran." });

const CODE_MODE_TOOLS = new Set([EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL]);

/** Starts one round of classic calls through `handlers.callTools`; each call's answer joins `answers`. */
function answerClassic(parts: ToolPart[], answers: Map<string, Promise<ToolCallAnswer>>, options: AgentLoopOptions): void {
  for (const part of parts) options.onActivity?.(part.toolCallId, "running");
  const round = options.handlers.callTools!(parts.map((p) => ({ toolCallId: p.toolCallId, toolName: toolNameOf(p), input: p.input }))).catch(
    (error: unknown): ToolCallAnswer[] => parts.map(() => ({ state: "output-error", errorText: `The tool calls could not be answered: ${String(error)}` })),
  );
  parts.forEach((part, i) => {
    answers.set(
      part.toolCallId,
      round
        .then((all) => all[i] ?? { state: "output-error" as const, errorText: "No answer for this call." })
        .finally(() => options.onActivity?.(part.toolCallId, undefined)),
    );
  });
}

/** Resolves (with nothing) when the signal aborts. */
function aborted(signal: AbortSignal): Promise<[]> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve([]);
    else signal.addEventListener("abort", () => resolve([]), { once: true });
  });
}

type ToolPart = Extract<CodeModeUIMessage["parts"][number], { toolCallId: string }>;

function withAnswer(part: ToolPart, answer: ToolCallAnswer): ToolPart {
  // The same update the AI SDK's addToolOutput makes.
  return (
    answer.state === "output-available"
      ? { ...part, state: "output-available", output: answer.output, errorText: undefined }
      : { ...part, state: "output-error", output: undefined, errorText: answer.errorText }
  ) as ToolPart;
}

const toolNameOf = (part: ToolPart): string => (part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length));

/** Runs the loop until the model answers, a limit stops it, a step fails or the signal aborts. Never throws. */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const signal = options.abortSignal ?? new AbortController().signal;
  let messages = [...options.messages];
  const steps: InspectorStep[] = [];
  const publish = () => options.onMessages?.(messages);
  const stopped = (): AgentLoopResult => {
    messages = cancelPendingToolCalls(messages);
    publish();
    return { messages, stop: { kind: "stopped" }, steps };
  };

  for (;;) {
    if (signal.aborted) return stopped();
    const previous = messages.at(-1);
    const continuing = previous?.role === "assistant";
    // Answers started while the step streams, by toolCallId.
    const answers = new Map<string, Promise<ToolCallAnswer>>();
    const answer = (part: ToolPart) => {
      const stepMode = options.stepMode === true && toolNameOf(part) === EXECUTE_CODE_TOOL;
      options.onActivity?.(part.toolCallId, stepMode ? "approval" : "running");
      const handlers: ToolHandlers = {
        ...options.handlers,
        runCode: (code, id) => {
          // Approved after the caller stopped: do not run it.
          if (signal.aborted) return Promise.resolve(STOPPED_RUN);
          options.onActivity?.(id, "running");
          return options.handlers.runCode(code, id);
        },
      };
      const pending = answerToolCall({ toolCallId: part.toolCallId, toolName: toolNameOf(part), input: part.input }, handlers, {
        stepMode: options.stepMode === true,
        ...(options.resultBudgetTokens === undefined ? {} : { resultBudgetTokens: options.resultBudgetTokens }),
      });
      answers.set(
        part.toolCallId,
        pending.finally(() => options.onActivity?.(part.toolCallId, undefined)),
      );
    };

    // Classic calls of this step, answered together once the step has streamed (one round).
    const classic = new Map<string, ToolPart>();
    const isClassic = (part: ToolPart) => options.handlers.callTools !== undefined && !CODE_MODE_TOOLS.has(toolNameOf(part));

    let failure: string | undefined;
    // Inspector records and errors come off the stream here; the reader builds the message from the rest.
    const tap = new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        if (chunk.type === "data-inspector") {
          const step = chunk.data as InspectorStep;
          steps.push(step);
          options.onInspector?.(step);
        } else if (chunk.type === "error") failure = chunk.errorText;
        else controller.enqueue(chunk);
      },
    });
    // The conversation before this step; each snapshot of the step's message goes after it.
    const base = continuing ? messages.slice(0, -1) : messages;
    try {
      options.onStatus?.("submitted");
      const { readUIMessageStream } = await loadUiStream();
      const stream = (await options.modelStep({ messages, abortSignal: signal })).pipeThrough(tap);
      let first = true;
      for await (const snapshot of readUIMessageStream<CodeModeUIMessage>({ stream, ...(continuing && previous ? { message: previous } : {}) })) {
        if (first) options.onStatus?.("streaming");
        first = false;
        for (const part of lastStepParts(snapshot)) {
          if (!isToolUIPart(part) || part.state !== "input-available" || part.providerExecuted || answers.has(part.toolCallId)) continue;
          if (isClassic(part as ToolPart)) classic.set(part.toolCallId, part as ToolPart);
          else answer(part as ToolPart);
        }
        messages = [...base, snapshot];
        publish();
      }
    } catch (error) {
      if (signal.aborted) return stopped();
      failure ??= chatErrorText(error instanceof Error ? error : new Error(String(error)));
    }

    if (classic.size > 0 && !signal.aborted) answerClassic([...classic.values()], answers, options);

    // Every call that started gets its answer, even after a failed step (its code already ran).
    // An abort does not wait for them: a call still waiting for a person is closed as stopped.
    const all = Promise.all([...answers].map(async ([id, pending]) => [id, await pending] as const));
    const settled = new Map(await Promise.race([all, aborted(signal)]));
    if (signal.aborted) return stopped();
    const last = messages.at(-1);
    if (last?.role === "assistant" && settled.size > 0) {
      messages = [
        ...messages.slice(0, -1),
        {
          ...last,
          parts: last.parts.map((p) => {
            const answer = isToolUIPart(p) ? settled.get(p.toolCallId) : undefined;
            return answer ? withAnswer(p as ToolPart, answer) : p;
          }),
        },
      ];
      publish();
    }
    if (failure !== undefined) return { messages, stop: { kind: "error", message: failure }, steps };
    const decision = decideNext(messages, options.policy);
    if (decision.kind === "continue") continue;
    // "wait" after a finished step means a call no one can answer (a provider-executed tool): stop as done.
    const stop: AgentLoopStop = decision.kind === "wait" ? { kind: "done" } : decision;
    const lastMessage = messages.at(-1);
    if (lastMessage && (stop.kind === "max-steps" || stop.kind === "returned-directly")) options.onStop?.(lastMessage.id, stop);
    return { messages, stop, steps };
  }
}
