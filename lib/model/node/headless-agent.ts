/**
 * The agent loop without a page, in Node: MCP servers connected over HTTP or started as local
 * commands (stdio), the typed API and system prompt built from what they list, the real QuickJS sandbox in this process, and the
 * model called directly through its AI SDK provider. The same runAgentLoop the page drives
 * (see docs/agent-loop.md, "The agent loop"); scripts/agent.ts is its command line.
 */
import { withSkills } from "../../skills/skill-host";
import { skillsServer, type Skill } from "../../skills/skill";
import { approvalPredicate, presetPolicy, withApprovalPolicy, type PresetDecision } from "../../host-calls/approvals";
import { choosePromptForm, createToolCatalog, type DiscoveryChoice } from "../../codemode";
import { buildHostFunctions } from "../../host-calls/mcp-tools";
import { connectServers } from "../../host-calls/node/connect-servers";
import { recordCalls, type MadeToolCall } from "../../host-calls/record-calls";
import { withToolDiscovery } from "../../mcp/tool-discovery";
import type { ServerConfig } from "../../mcp/types";
import { runInNode } from "../../sandbox/node/node-engine";
import type { RunResult } from "../../sandbox/types";
import { runAgentLoop, type AgentLoopObserver, type AgentLoopResult } from "../agent-loop";
import { directModelStep } from "../chat-stream";
import type { LoopPolicy } from "../loop-policy";
import { DEFAULT_MAX_STEPS } from "../loop-policy";
import type { ResolvedModel } from "../types";
import { handlersForMode, isClassicMode, type ToolMode } from "../tool-handler";
import { createToolWorld, modeInstructions, type ToolWorld } from "../tool-world";
import type { CodeModeUIMessage } from "../types";

/** One MCP tool call a run made (both modes), for assertions and reports. */
export type WorldToolCall = MadeToolCall;

/** The tool world of connected servers in Node: every program run is also pushed onto `runs`, every MCP call onto `calls`. */
export interface OpenedToolWorld extends ToolWorld {
  runs: Array<{ toolCallId: string; code: string; result: RunResult }>;
  calls: WorldToolCall[];
  close(): Promise<void>;
}

/** Connects each enabled server (HTTP: relative URLs resolve against `baseUrl`; stdio: its command is started) and builds the world. */
export async function openToolWorld(
  servers: readonly ServerConfig[],
  options: { baseUrl: string; destructive?: PresetDecision; skills?: readonly Skill[] },
): Promise<OpenedToolWorld> {
  const connected = await connectServers(servers, options);
  const hostServers = connected.servers;
  const skills = options.skills ?? [];
  const skillServer = skillsServer(skills);
  // The skills join the catalog under `skills` (lib/skills/), as in the page.
  const catalog = createToolCatalog([...hostServers.map((s) => ({ name: s.name, tools: s.tools })), ...(skillServer ? [skillServer] : [])]);
  const calls: WorldToolCall[] = [];
  const { host: live, namespaces } = buildHostFunctions(hostServers);
  // Destructive calls as the caller decided in advance (evals: the suite's policy); sent by default.
  const host = withApprovalPolicy(live, presetPolicy(approvalPredicate(catalog.servers), options.destructive ?? "approve"), { names: namespaces });
  // A skill's program runs in-process over the same host functions; its calls are recorded like the program's.
  const withSkill = withSkills(
    recordCalls(host, namespaces, (call) => calls.push(call)),
    skills,
    { run: (request, h, onEvent, signal) => runInNode(request, h, { onEvent, signal }) },
  );
  // tools.search / tools.describe over the same catalog, outside what `calls` records (MCP calls only).
  const recorded = withToolDiscovery(withSkill, catalog);
  const runs: OpenedToolWorld["runs"] = [];
  const runCode = async (code: string, toolCallId: string) => {
    const result = await runInNode({ code }, recorded);
    runs.push({ toolCallId, code, result });
    return result;
  };
  return { ...createToolWorld(catalog, { runCode }), runs, calls, close: () => connected.close() };
}

/** One prompt, headless. */
export interface HeadlessRunOptions extends AgentLoopObserver {
  world: ToolWorld;
  model: ResolvedModel;
  prompt: string;
  /** The typed API's form: by the budget ("auto", the default), or pinned (lib/codemode/prompt-form.ts). */
  discovery?: DiscoveryChoice;
  /** Declaration tokens past which "auto" searches (default DEFAULT_DECLARATIONS_BUDGET_TOKENS). */
  declarationsBudgetTokens?: number;
  /** Code mode (default), classic tool calling, or classic with tool search. */
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
    discovery = "auto",
    declarationsBudgetTokens,
    toolMode = "code",
    policy,
    settings,
    history = [],
    abortSignal,
    resultBudgetTokens,
    ...observer
  } = options;
  const classic = isClassicMode(toolMode);
  const form = choosePromptForm(world.catalog.declarations.text, discovery, declarationsBudgetTokens);
  const { mode } = form;
  const user: CodeModeUIMessage = { id: `user-${history.length + 1}`, role: "user", parts: [{ type: "text", text: prompt }] };
  return runAgentLoop({
    ...observer,
    messages: [...history, user],
    modelStep: directModelStep({
      model,
      instructions: modeInstructions(toolMode, world.catalog, world.catalog.systemPrompt(mode)),
      mode,
      ...(classic ? {} : { modeWhy: form.why }),
      toolMode,
      classicTools: classic ? world.catalog.classicTools : [],
      ...(settings ? { settings } : {}),
    }),
    handlers: handlersForMode(toolMode, world.handlers),
    policy: { maxSteps: policy?.maxSteps ?? DEFAULT_MAX_STEPS, returnDirectly: policy?.returnDirectly ?? false },
    ...(abortSignal ? { abortSignal } : {}),
    ...(resultBudgetTokens === undefined ? {} : { resultBudgetTokens }),
  });
}
