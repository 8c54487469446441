/**
 * One model step as a UI message stream: the conversation goes to the model with the code-mode
 * tools (no execute: the browser answers them) and the system prompt the browser sent; text
 * and tool calls stream back, followed by the inspector records of the call. Used by the
 * route and by the Node agent loop, so tests exercise the stream the browser reads.
 *
 * Ordering matters to the browser: useChat stops reading at an `error` chunk, so inspector
 * records are written before it (a failed call still shows its request), and the finish
 * chunk is written last, by us.
 */
import type { ToolMode } from "./tool-handler";
import { convertToModelMessages, createUIMessageStream, generateId, streamText, wrapLanguageModel } from "ai";
import type { FinishReason, InferUIMessageChunk, UIMessageChunk } from "ai";
import type { PromptMode } from "../codemode/system-prompt";
import { allModelTools, toolsForRequest, type ClassicToolSpec } from "./code-tools";
import { inspectorMiddleware } from "./inspector";
import { describeModelError } from "./model-errors";
import type { ModelStep } from "./agent-loop";
import type { ResolvedModel } from "./types";
import type { CodeModeUIMessage, InspectorStep } from "./types";

/** What one step needs. */
export interface StreamChatOptions {
  model: ResolvedModel;
  /** The system prompt, as the browser built (and maybe the person edited) it. */
  instructions: string;
  /** The conversation; a trailing assistant message is continued, not replaced. */
  messages: CodeModeUIMessage[];
  mode: PromptMode;
  /** Why `mode` (lib/codemode/prompt-form.ts), for the request inspector. */
  modeWhy?: string;
  /** Classic tool calling instead of code mode (with every tool, or with tool search); its tools come with the request. */
  toolMode?: ToolMode;
  classicTools?: readonly ClassicToolSpec[];
  settings?: { temperature?: number; maxOutputTokens?: number };
  abortSignal?: AbortSignal;
  /**
   * Provider retries. Default 0: every call shows in the inspector and the person has a
   * Retry button, so silent retries would only hide calls and add latency.
   */
  maxRetries?: number;
}

/** Runs one model step and returns its UI message stream (never throws; failures become an error chunk). */
export function streamChat(options: StreamChatOptions): ReadableStream<UIMessageChunk> {
  const { model, messages } = options;
  const last = messages.at(-1);
  const messageId = last?.role === "assistant" ? last.id : generateId();
  const describe = (error: unknown) => describeModelError(error, { providerLabel: model.label, secrets: model.secrets, keyHint: model.keyHint }).message;
  const steps: InspectorStep[] = [];
  const wrapped = wrapLanguageModel({
    model: model.model,
    middleware: inspectorMiddleware({ messageId, onStep: (s) => steps.push(s), describeError: describe }),
  });
  // The history may hold search_tools calls from search mode, or classic calls, whatever the mode is now.
  const classic = options.classicTools ?? [];
  const allTools = allModelTools(classic);

  return createUIMessageStream<CodeModeUIMessage>({
    onError: describe,
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId });
      const result = streamText({
        model: wrapped,
        ...(options.instructions.trim() === "" ? {} : { instructions: options.instructions }),
        // Incomplete calls (a run the person stopped) are left out rather than sent unanswered.
        messages: await convertToModelMessages(messages, { tools: allTools, ignoreIncompleteToolCalls: true }),
        tools: toolsForRequest(options.toolMode ?? "code", options.mode, classic, messages),
        maxRetries: options.maxRetries ?? 0,
        // The default handler logs the whole error, request body and provider answer included
        // (a key can be in either). The error reaches the person through the stream instead.
        onError: () => undefined,
        ...(options.settings?.temperature === undefined ? {} : { temperature: options.settings.temperature }),
        ...(options.settings?.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.settings.maxOutputTokens }),
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      let failure: string | undefined;
      // redactToolErrors off: a malformed tool call must reach the model with the parser's own words.
      for await (const chunk of result.toUIMessageStream({ sendStart: false, sendFinish: false, onError: describe, redactToolErrors: false })) {
        if (chunk.type === "error") failure ??= chunk.errorText;
        // The SDK types the chunk without our data parts; it carries none of them.
        else writer.write(chunk as InferUIMessageChunk<CodeModeUIMessage>);
      }
      const form =
        options.toolMode === "classic"
          ? undefined
          : options.toolMode === "classic-search"
            ? { mode: "search" as const, why: "classic with tool search: tool definitions load when a search finds them" }
            : { mode: options.mode, ...(options.modeWhy ? { why: options.modeWhy } : {}) };
      for (const step of steps) {
        if (form) step.request.form = form;
        writer.write({ type: "data-inspector", id: step.id, data: step, transient: true });
      }
      if (failure !== undefined) writer.write({ type: "error", errorText: failure });
      else writer.write({ type: "finish", finishReason: (steps.at(-1)?.response.finishReason ?? "stop") as FinishReason });
    },
  });
}

/** A model step that calls the provider in this process (Node: the headless runner, tests). */
export function directModelStep(options: Omit<StreamChatOptions, "messages" | "abortSignal">): ModelStep {
  return ({ messages, abortSignal }) => Promise.resolve(streamChat({ ...options, messages, abortSignal }));
}
