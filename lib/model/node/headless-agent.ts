/**
 * The agent loop without a page, in Node: MCP servers connected over HTTP or started as local
 * commands (stdio), the typed API and system prompt built from what they list, the real QuickJS sandbox in this process, and the
 * model called directly through its AI SDK provider. The same runAgentLoop the page drives
 * (see docs/ARCHITECTURE.md, "The agent loop"); scripts/agent.ts is its command line.
 */
import { approvalPredicate, presetPolicy, withApprovalPolicy, type PresetDecision } from "../../host-calls/approvals";
import {
  buildSystemPrompt,
  CLASSIC_SYSTEM_PROMPT,
  classicTools,
  createToolSearch,
  generateDeclarations,
  type ClassicTool,
  type PromptMode,
  type ServerTools,
} from "../../codemode";
import { buildHostFunctions } from "../../mcp/host-functions";
import { connectServers } from "../../mcp/node/connect-servers";
import { recordCalls, type MadeToolCall } from "../../mcp/record-calls";
import type { ServerConfig } from "../../mcp/types";
import { runInNode } from "../../sandbox/node/node-engine";
import type { RunResult } from "../../sandbox/types";
import { runAgentLoop, type AgentLoopObserver, type AgentLoopResult } from "../agent-loop";
import { directModelStep } from "../chat-stream";
import { classicCallsHandler } from "../classic";
import type { LoopPolicy } from "../loop-policy";
import { DEFAULT_MAX_STEPS } from "../loop-policy";
import type { ResolvedModel } from "../types";
import { handlersForMode, type ToolHandlers, type ToolMode } from "../tool-handler";
import type { CodeModeUIMessage } from "../types";

/** One MCP tool call a run made (both modes), for assertions and reports. */
export type WorldToolCall = MadeToolCall;

/** Connected servers and what the model and the sandbox need of them. */
export interface ToolWorld {
  /** The generated system prompt for a mode. */
  systemPrompt(mode?: PromptMode): string;
  /** The sandbox, tool search and classic calls, as the loop calls them. Every program run is also pushed onto `runs`, every MCP call onto `calls`. */
  handlers: ToolHandlers;
  /** The connected servers' names and tools, in order. */
  servers: ServerTools[];
  /** Every tool as a classic tool (classic mode offers these). */
  classicTools: ClassicTool[];
  runs: Array<{ toolCallId: string; code: string; result: RunResult }>;
  calls: WorldToolCall[];
  close(): Promise<void>;
}

/** Connects each enabled server (HTTP: relative URLs resolve against `baseUrl`; stdio: its command is started) and builds the world. */
export async function openToolWorld(servers: readonly ServerConfig[], options: { baseUrl: string; destructive?: PresetDecision }): Promise<ToolWorld> {
  const connected = await connectServers(servers, options);
  const hostServers = connected.servers;
  const serverTools = hostServers.map((s) => ({ name: s.name, tools: s.tools }));
  const declarations = generateDeclarations(serverTools);
  const search = createToolSearch(serverTools, declarations);
  const calls: WorldToolCall[] = [];
  const { host: live, namespaces } = buildHostFunctions(hostServers);
  // Destructive calls as the caller decided in advance (evals: the suite's policy); sent by default.
  const decision = options.destructive ?? "approve";
  const host = withApprovalPolicy(live, presetPolicy(approvalPredicate(serverTools), decision), { names: namespaces });
  const recorded = recordCalls(host, namespaces, (call) => calls.push(call));
  const runs: ToolWorld["runs"] = [];
  const runCode = async (code: string, toolCallId: string) => {
    const result = await runInNode({ code }, recorded);
    runs.push({ toolCallId, code, result });
    return result;
  };
  const classic = classicTools(serverTools);
  return {
    systemPrompt: (mode = "declarations") => buildSystemPrompt(declarations, mode),
    runs,
    calls,
    servers: serverTools,
    classicTools: classic,
    handlers: {
      runCode,
      searchTools: (query, limit) => search.search(query, limit).text,
      callTools: classicCallsHandler(classic, runCode),
    },
    close: () => connected.close(),
  };
}

/** One prompt, headless. */
export interface HeadlessRunOptions extends AgentLoopObserver {
  world: ToolWorld;
  model: ResolvedModel;
  prompt: string;
  mode?: PromptMode;
  /** Code mode (default) or classic tool calling. */
  toolMode?: ToolMode;
  /** Tokens a program's value may take before it reaches the model cut (default result-budget.ts). */
  resultBudgetTokens?: number;
  policy?: Partial<LoopPolicy>;
  settings?: { temperature?: number; maxOutputTokens?: number };
  /** The conversation before the prompt. */
  history?: CodeModeUIMessage[];
  abortSignal?: AbortSignal;
}

/** Sends one prompt through the agent loop and returns how it ended. */
export function runHeadlessAgent(options: HeadlessRunOptions): Promise<AgentLoopResult> {
  const {
    world,
    model,
    prompt,
    mode = "declarations",
    toolMode = "code",
    policy,
    settings,
    history = [],
    abortSignal,
    resultBudgetTokens,
    ...observer
  } = options;
  const classic = toolMode === "classic";
  const user: CodeModeUIMessage = { id: `user-${history.length + 1}`, role: "user", parts: [{ type: "text", text: prompt }] };
  return runAgentLoop({
    ...observer,
    messages: [...history, user],
    modelStep: directModelStep({
      model,
      instructions: classic ? CLASSIC_SYSTEM_PROMPT : world.systemPrompt(mode),
      mode,
      toolMode,
      classicTools: classic ? world.classicTools : [],
      ...(settings ? { settings } : {}),
    }),
    handlers: handlersForMode(toolMode, world.handlers),
    policy: { maxSteps: policy?.maxSteps ?? DEFAULT_MAX_STEPS, returnDirectly: policy?.returnDirectly ?? false },
    ...(abortSignal ? { abortSignal } : {}),
    ...(resultBudgetTokens === undefined ? {} : { resultBudgetTokens }),
  });
}
