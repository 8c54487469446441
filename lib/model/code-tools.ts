/**
 * The model-level tools of code mode, as the AI SDK declares them to a provider. They have no
 * `execute`: the browser runs them (the sandbox and the MCP connections live there), so
 * streamText stops after a step with tool calls and the client answers with the results.
 * Names, descriptions and schemas come from lib/codemode/system-prompt.ts, the one place
 * that words what the model is told.
 */
import { jsonSchema, tool } from "ai";
import type { ToolSet } from "ai";
import {
  EXECUTE_CODE_DESCRIPTION,
  EXECUTE_CODE_INPUT_SCHEMA,
  EXECUTE_CODE_TOOL,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_INPUT_SCHEMA,
  SEARCH_TOOLS_TOOL,
  type PromptMode,
} from "../codemode/system-prompt";
import { CLASSIC_SEARCH_DESCRIPTION } from "../codemode/classic-tools";
import type { ToolMode } from "./tool-handler";
import type { CodeModeUIMessage, ExecuteCodeInput, SearchToolsInput } from "./types";

// The JSON Schemas are `as const` literals; jsonSchema() wants the mutable JSONSchema7 shape.
const executeSchema = jsonSchema<ExecuteCodeInput>(structuredClone(EXECUTE_CODE_INPUT_SCHEMA) as unknown as Parameters<typeof jsonSchema>[0]);
const searchSchema = jsonSchema<SearchToolsInput>(structuredClone(SEARCH_TOOLS_INPUT_SCHEMA) as unknown as Parameters<typeof jsonSchema>[0]);

/** Client-side tools for the given prompt mode (no execute: the browser answers them). */
export function codeModeTools(mode: PromptMode): ToolSet {
  const executeCode = tool({ description: EXECUTE_CODE_DESCRIPTION, inputSchema: executeSchema });
  if (mode !== "search") return { [EXECUTE_CODE_TOOL]: executeCode };
  const searchTools = tool({ description: SEARCH_TOOLS_DESCRIPTION, inputSchema: searchSchema });
  return { [EXECUTE_CODE_TOOL]: executeCode, [SEARCH_TOOLS_TOOL]: searchTools };
}

/** A classic tool as the request carries it (lib/codemode/classic-tools.ts builds them in the browser). */
export interface ClassicToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Classic mode: every MCP tool as an ordinary client-side tool, with its own JSON Schema. */
export function classicModelTools(tools: readonly ClassicToolSpec[]): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({ description: t.description, inputSchema: jsonSchema(structuredClone(t.inputSchema) as Parameters<typeof jsonSchema>[0]) }),
    ]),
  );
}

/**
 * The tools that search_tools calls of the conversation loaded (classic with tool search): the
 * names each answered search listed, in the order they were first loaded.
 */
export function loadedClassicTools(messages: readonly CodeModeUIMessage[]): Set<string> {
  const loaded = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== `tool-${SEARCH_TOOLS_TOOL}` || !("state" in part) || part.state !== "output-available") continue;
      const tools = (part.output as { tools?: unknown } | undefined)?.tools;
      if (Array.isArray(tools)) for (const name of tools) if (typeof name === "string") loaded.add(name);
    }
  }
  return loaded;
}

/**
 * The tools a request offers: code mode's (execute_code, and search_tools in search form);
 * classic's every tool; or, classic with tool search, search_tools and the tools searches have
 * loaded so far.
 */
export function toolsForRequest(toolMode: ToolMode, mode: PromptMode, classic: readonly ClassicToolSpec[], messages: readonly CodeModeUIMessage[]): ToolSet {
  if (toolMode === "code") return codeModeTools(mode);
  if (toolMode === "classic") return classicModelTools(classic);
  const loaded = loadedClassicTools(messages);
  const search = tool({ description: CLASSIC_SEARCH_DESCRIPTION, inputSchema: searchSchema });
  return { [SEARCH_TOOLS_TOOL]: search, ...classicModelTools(classic.filter((t) => loaded.has(t.name))) };
}

/** Every tool a conversation may hold (both modes), to read its history. */
export function allModelTools(classic: readonly ClassicToolSpec[]): ToolSet {
  return { ...codeModeTools("search"), ...classicModelTools(classic) };
}
