/**
 * The agent loop without a page, in Node: MCP servers connected over HTTP, the typed API and
 * system prompt built from what they list, the real QuickJS sandbox in this process, and the
 * model called directly through its AI SDK provider. The same runAgentLoop the page drives
 * (see docs/ARCHITECTURE.md, "The agent loop"); scripts/agent.ts is its command line.
 */
import { buildSystemPrompt, createToolSearch, generateDeclarations, type PromptMode } from "../../codemode";
import { connectToServer, type McpConnection } from "../../mcp/connection";
import { buildHostFunctions, type HostServer } from "../../mcp/host-functions";
import type { ServerConfig } from "../../mcp/types";
import { runInNode } from "../../sandbox/node/node-engine";
import type { RunResult } from "../../sandbox/types";
import { runAgentLoop, type AgentLoopObserver, type AgentLoopResult } from "../agent-loop";
import { directModelStep } from "../chat-stream";
import type { LoopPolicy } from "../loop-policy";
import { DEFAULT_MAX_STEPS } from "../loop-policy";
import type { ResolvedModel } from "../types";
import type { ToolHandlers } from "../tool-handler";
import type { CodeModeUIMessage } from "../types";

/** Connected servers and what the model and the sandbox need of them. */
export interface ToolWorld {
  /** The generated system prompt for a mode. */
  systemPrompt(mode?: PromptMode): string;
  /** The sandbox and tool search, as the loop calls them. Every program run is also pushed onto `runs`. */
  handlers: ToolHandlers;
  runs: Array<{ toolCallId: string; code: string; result: RunResult }>;
  close(): Promise<void>;
}

/** Connects each enabled HTTP server (relative URLs resolve against `baseUrl`) and builds the world. */
export async function openToolWorld(servers: readonly ServerConfig[], options: { baseUrl: string }): Promise<ToolWorld> {
  const connections: McpConnection[] = [];
  const hostServers: HostServer[] = [];
  try {
    for (const server of servers) {
      if (!server.enabled) continue;
      if (server.transport === "stdio") throw new Error(`${server.name}: stdio servers are not supported by the headless runner yet; use an HTTP server.`);
      const connection = await connectToServer(server, { baseUrl: options.baseUrl, proxyUrl: "/api/mcp/proxy", via: "direct" });
      connections.push(connection);
      hostServers.push({ name: server.name, connection, tools: await connection.listTools() });
    }
  } catch (error) {
    await Promise.all(connections.map((c) => c.close()));
    throw error;
  }
  const serverTools = hostServers.map((s) => ({ name: s.name, tools: s.tools }));
  const declarations = generateDeclarations(serverTools);
  const search = createToolSearch(serverTools, declarations);
  const { host } = buildHostFunctions(hostServers);
  const runs: ToolWorld["runs"] = [];
  return {
    systemPrompt: (mode = "declarations") => buildSystemPrompt(declarations, mode),
    runs,
    handlers: {
      async runCode(code, toolCallId) {
        const result = await runInNode({ code }, host);
        runs.push({ toolCallId, code, result });
        return result;
      },
      searchTools: (query, limit) => search.search(query, limit).text,
    },
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}

/** One prompt, headless. */
export interface HeadlessRunOptions extends AgentLoopObserver {
  world: ToolWorld;
  model: ResolvedModel;
  prompt: string;
  mode?: PromptMode;
  policy?: Partial<LoopPolicy>;
  settings?: { temperature?: number; maxOutputTokens?: number };
  /** The conversation before the prompt. */
  history?: CodeModeUIMessage[];
  abortSignal?: AbortSignal;
}

/** Sends one prompt through the agent loop and returns how it ended. */
export function runHeadlessAgent(options: HeadlessRunOptions): Promise<AgentLoopResult> {
  const { world, model, prompt, mode = "declarations", policy, settings, history = [], abortSignal, ...observer } = options;
  const user: CodeModeUIMessage = { id: `user-${history.length + 1}`, role: "user", parts: [{ type: "text", text: prompt }] };
  return runAgentLoop({
    ...observer,
    messages: [...history, user],
    modelStep: directModelStep({ model, instructions: world.systemPrompt(mode), mode, ...(settings ? { settings } : {}) }),
    handlers: world.handlers,
    policy: { maxSteps: policy?.maxSteps ?? DEFAULT_MAX_STEPS, returnDirectly: policy?.returnDirectly ?? false },
    ...(abortSignal ? { abortSignal } : {}),
  });
}
