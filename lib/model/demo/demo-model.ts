/**
 * The offline demo model: a real LanguageModelV4 that the chat route runs like any provider's
 * model, so its tool calls go through the same client-side loop (browser sandbox, real demo
 * MCP servers) and the request inspector sees it like any other. It streams in a few chunks
 * and reports usage counted with the o200k tokenizer on the request it really received (the
 * prompt and the tools) and on what it answered, marked as estimated.
 */
import type { CallOptions, GenerateResult, LanguageModelV4, ModelUsage, StreamPart } from "../spec-types";
import { countTokens, TOKEN_ENCODING } from "../../codemode/tokens";
import { decideDemoTurn, type DemoTurn } from "./demo-brain";

/** The demo model's id. */
export const DEMO_MODEL_ID = "code-mode-demo";
/** Provider name it reports. */
export const DEMO_PROVIDER = "demo";

/** Options; tests set chunkDelayMs to 0. */
export interface DemoModelOptions {
  /** Pause between streamed chunks, to look like streaming in the UI. Default 12 ms. */
  chunkDelayMs?: number;
}

const estimateTokens = (text: string) => Math.max(1, countTokens(text));

/**
 * The text a provider tokenises for a prompt: each message's role and content as text (the
 * system prompt as written, tool inputs and results as JSON), not the prompt's own JSON, whose
 * escaping of quotes and newlines would count code mode's declarations high.
 */
export function promptText(prompt: CallOptions["prompt"]): string {
  return prompt
    .map((message) => {
      if (typeof message.content === "string") return `${message.role}\n${message.content}`;
      const parts = (message.content as unknown as ReadonlyArray<Record<string, unknown>>).map((part) => {
        if (part.type === "text" || part.type === "reasoning") return typeof part.text === "string" ? part.text : "";
        if (part.type === "tool-call") return `${String(part.toolName)} ${typeof part.input === "string" ? part.input : JSON.stringify(part.input)}`;
        if (part.type === "tool-result") {
          const output = (part.output ?? {}) as { type?: string; value?: unknown };
          return `${String(part.toolName)} ${typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null)}`;
        }
        return JSON.stringify(part);
      });
      return `${message.role}\n${parts.join("\n")}`;
    })
    .join("\n");
}

function usageOf(options: CallOptions, output: string): ModelUsage {
  const input = estimateTokens(promptText(options.prompt) + JSON.stringify(options.tools ?? []));
  const out = estimateTokens(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: out, text: out, reasoning: undefined },
    raw: { estimated: true, encoding: TOKEN_ENCODING },
  };
}

/** Splits text into a few chunks at word boundaries. */
function chunks(text: string, count: number): string[] {
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / count));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(""));
  return out;
}

let callCounter = 0;

type FinishReason = Extract<StreamPart, { type: "finish" }>["finishReason"];

/** The stream parts for a turn, without the finish part (its usage needs the whole output). */
function partsFor(turn: DemoTurn): { parts: StreamPart[]; output: string; finishReason: FinishReason } {
  const parts: StreamPart[] = [];
  const text = turn.kind === "text" ? turn.text : (turn.intro ?? "");
  if (text !== "") {
    parts.push({ type: "text-start", id: "t0" });
    for (const delta of chunks(text, 6)) parts.push({ type: "text-delta", id: "t0", delta });
    parts.push({ type: "text-end", id: "t0" });
  }
  if (turn.kind === "text") return { parts, output: text, finishReason: { unified: "stop", raw: "stop" } };
  let output = text;
  for (const call of turn.calls) {
    const id = `demo_call_${++callCounter}`;
    const input = JSON.stringify(call.input);
    parts.push({ type: "tool-input-start", id, toolName: call.toolName });
    for (const delta of chunks(input, 4)) parts.push({ type: "tool-input-delta", id, delta });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: call.toolName, input });
    output += input;
  }
  return { parts, output, finishReason: { unified: "tool-calls", raw: "tool_calls" } };
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Creates the offline demo model. */
export function createDemoModel(options: DemoModelOptions = {}): LanguageModelV4 {
  const pause = options.chunkDelayMs ?? 12;
  const plan = async (call: CallOptions) => {
    const toolNames = (call.tools ?? []).map((t) => t.name);
    const { parts, output, finishReason } = partsFor(await decideDemoTurn(call.prompt, toolNames));
    return [...parts, { type: "finish", usage: usageOf(call, output), finishReason } satisfies StreamPart];
  };
  return {
    specificationVersion: "v4",
    provider: DEMO_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call: CallOptions): Promise<GenerateResult> {
      const parts = await plan(call);
      const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");
      const toolCalls = parts.filter((p) => p.type === "tool-call");
      const finish = parts.find((p) => p.type === "finish");
      return {
        content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...toolCalls],
        finishReason: finish?.finishReason ?? { unified: "stop", raw: "stop" },
        usage: finish?.usage ?? usageOf(call, text),
        warnings: [],
      };
    },
    async doStream(call: CallOptions) {
      const parts = await plan(call);
      let index = 0;
      const stream = new ReadableStream<StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "response-metadata", id: `demo-${Date.now()}`, modelId: DEMO_MODEL_ID, timestamp: new Date() });
        },
        async pull(controller) {
          const part = parts[index++];
          if (part === undefined) return controller.close();
          if (part.type === "text-delta" || part.type === "tool-input-delta") await delay(pause, call.abortSignal);
          controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}
