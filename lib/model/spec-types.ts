/**
 * The language-model specification types the installed `ai` expects (LanguageModelV4), derived
 * from `ai`'s own exports so lib/model does not depend on @ai-sdk/provider directly (it is a
 * dependency of `ai`, not of this app). Types only.
 */
import type { LanguageModel } from "ai";

/** The current language model interface (specificationVersion "v4"). */
export type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;
/** Options of doStream/doGenerate: prompt, tools, settings. */
export type CallOptions = Parameters<LanguageModelV4["doStream"]>[0];
/** The prompt a model receives: system, user, assistant and tool messages. */
export type ModelPrompt = CallOptions["prompt"];
/** One message of that prompt. */
export type PromptMessage = ModelPrompt[number];
/** What doStream resolves to. */
export type StreamResult = Awaited<ReturnType<LanguageModelV4["doStream"]>>;
/** One part of a model's output stream. */
export type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;
/** What doGenerate resolves to. */
export type GenerateResult = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>;
/** Token usage as a model reports it. */
export type ModelUsage = Extract<StreamPart, { type: "finish" }>["usage"];
