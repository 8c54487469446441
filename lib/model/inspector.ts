/**
 * Records every model call for the request inspector, as a language-model middleware: it sees
 * the call exactly as the provider adapter receives it (system prompt, tool definitions,
 * messages, settings), the HTTP body the adapter reports sending, what streamed back, the
 * usage the provider reported, and the latency. Wrapping the model (rather than reading
 * streamText's results) also catches calls that fail before any chunk arrives.
 */
import type { LanguageModelMiddleware } from "ai";
import { generateId } from "ai";
import type { CallOptions, ModelUsage, StreamPart } from "./spec-types";
import type { InspectorStep, InspectorTool, InspectorUsage } from "./types";

/** Where finished records go, and how a failure is worded (the same text the chat shows). */
export interface InspectorSink {
  messageId: string;
  onStep(step: InspectorStep): void;
  describeError(error: unknown): string;
  /** Clock, injectable for tests. */
  now?: () => number;
}

function requestOf(params: CallOptions): InspectorStep["request"] {
  const system = params.prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
  const tools: InspectorTool[] = (params.tools ?? []).map((t) =>
    t.type === "function"
      ? { name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema }
      : { name: t.name, inputSchema: t.args },
  );
  return {
    system,
    tools,
    messages: params.prompt.filter((m) => m.role !== "system"),
    settings: {
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.maxOutputTokens === undefined ? {} : { maxOutputTokens: params.maxOutputTokens }),
      ...(params.toolChoice === undefined ? {} : { toolChoice: params.toolChoice }),
    },
  };
}

function usageOf(usage: ModelUsage): InspectorUsage {
  const inputTokens = usage.inputTokens.total;
  const outputTokens = usage.outputTokens.total;
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(inputTokens === undefined || outputTokens === undefined ? {} : { totalTokens: inputTokens + outputTokens }),
  };
}

/** A middleware that reports one InspectorStep per streamed model call. */
export function inspectorMiddleware(sink: InspectorSink): LanguageModelMiddleware {
  const now = sink.now ?? (() => Date.now());
  return {
    specificationVersion: "v4",
    async wrapStream({ doStream, params, model }) {
      const startedAt = now();
      const step: InspectorStep = {
        id: generateId(),
        messageId: sink.messageId,
        provider: model.provider,
        modelId: model.modelId,
        startedAt,
        latencyMs: 0,
        request: requestOf(params),
        response: { text: "", toolCalls: [] },
      };
      const report = () => {
        step.latencyMs = now() - startedAt;
        sink.onStep(step);
      };
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await doStream();
      } catch (error) {
        step.response.error = sink.describeError(error);
        report();
        throw error;
      }
      if (result.request?.body !== undefined) step.request.body = result.request.body;
      const stream = result.stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform(part, controller) {
            step.firstChunkMs ??= now() - startedAt;
            if (part.type === "text-delta") step.response.text += part.delta;
            else if (part.type === "tool-call") step.response.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            else if (part.type === "error") step.response.error = sink.describeError(part.error);
            else if (part.type === "finish") {
              step.response.finishReason = part.finishReason.unified;
              step.usage = usageOf(part.usage);
            }
            controller.enqueue(part);
          },
          flush: report,
        }),
      );
      return { ...result, stream };
    },
  };
}
