/**
 * Types shared by the chat route, the browser hook and the Node agent loop: the tool inputs
 * and outputs the model sees, the inspector record of each model call, and the UI message
 * type that ties them together. Types only.
 */
import type { UIMessage } from "ai";
import type { LanguageModelV4 } from "./spec-types";
import type { SandboxError } from "../sandbox/types";
import type { Truncation } from "./result-budget";

/** Input of execute_code. */
export interface ExecuteCodeInput {
  code: string;
}

/** Input of search_tools. */
export interface SearchToolsInput {
  query: string;
  limit?: number;
}

/**
 * What execute_code answers, as the model sees it: the program's value and console lines,
 * or a typed sandbox error (its `kind` tells the model what to fix) with the lines logged
 * before it failed. `skipped` is a person declining to run the code in step mode;
 * `editedCode` is set when a person changed the code before it ran, so the model is not
 * misled about which program produced the result.
 */
export type ExecuteCodeOutput =
  | { ok: true; value: unknown; logs: string[]; editedCode?: string; truncated?: Truncation }
  | { ok: false; error: SandboxError; logs: string[]; editedCode?: string }
  | { ok: false; skipped: true; message: string };

/** What search_tools answers: the declarations of the best matches, as TypeScript text. */
export interface SearchToolsOutput {
  declarations: string;
  /** Classic with tool search: the tools this search loaded, callable from the next step on. */
  tools?: string[];
}

/** Tool types for typed UI messages (a type literal: UITools needs an implicit index signature). */
export type CodeModeTools = {
  execute_code: { input: ExecuteCodeInput; output: ExecuteCodeOutput };
  search_tools: { input: SearchToolsInput; output: SearchToolsOutput };
};

/** Token counts the provider reported for one call. */
export interface InspectorUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/** A tool the model was offered, as sent. */
export interface InspectorTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** One model call (one step), as the request inspector shows it. */
export interface InspectorStep {
  /** Unique per call. */
  id: string;
  /** The assistant message this call streamed into. */
  messageId: string;
  provider: string;
  modelId: string;
  /** Wall-clock start, epoch ms. */
  startedAt: number;
  /** Until the response finished (or failed). */
  latencyMs: number;
  /** Until the first streamed chunk, when one arrived. */
  firstChunkMs?: number;
  request: {
    /** The system prompt as sent. */
    system: string;
    /** Code mode: the form of the typed API the prompt carried (every declaration, or tool search), and why. */
    form?: { mode: "declarations" | "search"; why?: string };
    tools: InspectorTool[];
    /** The conversation as the provider adapter received it (system message removed). */
    messages: unknown[];
    settings: { temperature?: number; maxOutputTokens?: number; toolChoice?: unknown };
    /** The HTTP body the provider adapter reported sending, when it reports one. */
    body?: unknown;
  };
  response: {
    text: string;
    toolCalls: Array<{ toolCallId: string; toolName: string; input: string }>;
    finishReason?: string;
    /** Set when the call failed; the same text the chat shows. */
    error?: string;
  };
  usage?: InspectorUsage;
}

/** Data parts the chat stream carries. Inspector steps are transient: never stored in messages. */
export type CodeModeDataParts = {
  inspector: InspectorStep;
};

/** The chat's UI message type. */
export type CodeModeUIMessage = UIMessage<unknown, CodeModeDataParts, CodeModeTools>;

/** A model ready to call, with what error messages need to know about it. */
export interface ResolvedModel {
  model: LanguageModelV4;
  /** "OpenAI", "the OpenAI-compatible server at http://localhost:11434/v1": fits mid-sentence. */
  label: string;
  /** Keys this request uses, to redact from any error text. */
  secrets: string[];
  /** Where to fix a rejected key. */
  keyHint: string;
}
