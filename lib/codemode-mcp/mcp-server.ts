/**
 * The code-mode MCP server as an MCP `Server` (the v2 SDK's low-level server, so the tools carry
 * exactly the JSON Schemas in lib/codemode/system-prompt.ts): `execute_code` and
 * `search_tools`, logging (console lines of a program become log notifications at the level
 * the client set). One Server per 2025-11-25 session or 2026-07-28 request, all over one
 * CodeModeService; the transports (stdio, Streamable HTTP) connect it and pick the era
 * (docs/benchmarks.md, "The code-mode MCP server").
 */
import { acceptedContent, inputRequired, McpServer, ProtocolError } from "@modelcontextprotocol/server";
import type { CallToolResult, LoggingLevel, Server, ServerContext, Tool } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { Question } from "./approval-rounds";
import { clientNameOf, ModernRuns, type RoundState } from "./modern-runs";
import {
  EXECUTE_CODE_INPUT_SCHEMA,
  EXECUTE_CODE_TOOL,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_INPUT_SCHEMA,
  SEARCH_TOOLS_TOOL,
} from "../codemode/system-prompt";
import type { AskClient, CallContext, CodeModeService, ExecuteOutcome } from "./service";
import { skillTool } from "../skills/skill";
import { messageOf } from "../text/error-message";
import { isRecord } from "../text/json-value";

/** The server's name and version in initialize. */
export const CODE_MODE_SERVER_INFO = { name: "code-mode-playground", version: "0.1.0" } as const;

const EXECUTE_SCHEMA = {
  ...EXECUTE_CODE_INPUT_SCHEMA,
  properties: {
    code: { type: "string", description: "The body of an async function, ending with return." },
    data: { type: "object", description: "Optional inputs: each key becomes a read-only global in the program.", additionalProperties: true },
  },
};

const LOG_LEVELS: Record<string, LoggingLevel> = { log: "info", info: "info", debug: "debug", warn: "warning", error: "error" };

/** The tool result for an outcome: JSON text (and structured content) on success; isError with the kind on failure. */
export function outcomeResult(outcome: ExecuteOutcome): CallToolResult {
  if (outcome.ok) {
    const body = { value: outcome.value, logs: outcome.logs, calls: outcome.calls, wallMs: outcome.wallMs };
    return { content: [{ type: "text", text: JSON.stringify(body, null, 2) }], structuredContent: body };
  }
  const where = outcome.line ? ` (line ${outcome.line}${outcome.column ? `, column ${outcome.column}` : ""})` : "";
  const lines = [`${outcome.kind} error${where}: ${outcome.message}`];
  if (outcome.logs.length > 0) lines.push("", "console:", ...outcome.logs);
  if (outcome.calls.total > 0) lines.push("", `tool calls: ${JSON.stringify(outcome.calls)}`);
  return { isError: true, content: [{ type: "text", text: lines.join("\n") }] };
}

/**
 * A skill's tool result: its value as JSON text, and as structured content when it is an object
 * (what an output schema describes); a failure as isError with the kind, as execute_code's.
 */
export function skillResult(outcome: ExecuteOutcome): CallToolResult {
  if (!outcome.ok) return outcomeResult(outcome);
  const { value } = outcome;
  const structured = isRecord(value);
  return {
    content: [{ type: "text", text: JSON.stringify(value ?? null, null, 2) }],
    ...(structured ? { structuredContent: value } : {}),
  };
}

/** The form a destructive call is asked with: one boolean, no default (see `ask` below). */
const APPROVE_SCHEMA = {
  type: "object" as const,
  // No default, and only an explicit `true` allows the call: several clients accept a form with
  // its defaults filled in, so a default of true would approve a destructive call without a
  // person (docs/benchmarks.md, "The code-mode MCP server").
  properties: {
    approve: { type: "boolean" as const, title: "Allow this call", description: "Tick to allow this destructive call; anything else denies it." },
  },
  required: ["approve"],
};
const APPROVAL = z.object({ approve: z.boolean() });

function approvalMessage(question: Question): string {
  return `A program wants to call ${question.server}.${question.tool}, which is marked destructive, with ${JSON.stringify(question.args)}. Allow it?`;
}

/**
 * Per service, unless the caller brings its own: the programs a 2026-07-28 client runs across
 * requests (modern-runs.ts), with a `requestState` key random to this process.
 */
const runsOf = new WeakMap<CodeModeService, ModernRuns>();
function defaultRuns(service: CodeModeService): ModernRuns {
  let runs = runsOf.get(service);
  if (!runs) {
    runs = new ModernRuns({ taskAfterMs: service.taskAfterMs });
    runsOf.set(service, runs);
  }
  return runs;
}

type EnvelopeCapabilities = { elicitation?: unknown; extensions?: Record<string, unknown> };
function clientCapabilitiesOf(ctx: ServerContext): EnvelopeCapabilities | undefined {
  return (ctx.mcpReq.envelope as Record<string, EnvelopeCapabilities | undefined> | undefined)?.["io.modelcontextprotocol/clientCapabilities"];
}

function clientCanElicit(ctx: ServerContext): boolean {
  return clientCapabilitiesOf(ctx)?.elicitation !== undefined;
}

export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/** The client declared the tasks extension on this request, so a long program may answer as a task. */
function clientTakesTasks(ctx: ServerContext): boolean {
  const declared = clientCapabilitiesOf(ctx)?.extensions?.[TASKS_EXTENSION_ID];
  return typeof declared === "object" && declared !== null;
}

/** A task request's error as the wire carries it (-32602 for an unknown task or a wrong update). */
function taskError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  return new ProtocolError(typeof code === "number" ? code : -32603, messageOf(error));
}

/** Who sent a request: the 2026-07-28 envelope names the client on each request, a 2025 session once. */
function callerOf(server: Server, ctx: ServerContext): { name: string; modern: boolean } {
  if (ctx.mcpReq.envelope) return { name: clientNameOf(ctx) ?? "MCP client", modern: true };
  return { name: server.getClientVersion()?.name ?? "MCP client", modern: false };
}

/**
 * A server for one 2025-11-25 session or one 2026-07-28 request. An McpServer for the skills
 * extension, which attaches to one (published-skills.ts); the tools are the low-level Server's
 * handlers underneath, so they carry exactly the JSON Schemas the service gives them.
 */
export function createCodeModeMcpServer(service: CodeModeService, runs: ModernRuns = defaultRuns(service)): McpServer {
  const { codec, tasks: programTasks } = runs;
  const mcp = new McpServer(CODE_MODE_SERVER_INFO, {
    // Tasks are offered to 2026-07-28 clients that declare the extension (program-tasks.ts).
    capabilities: { tools: {}, logging: {}, extensions: { [TASKS_EXTENSION_ID]: {} } },
    // A tampered, expired or moved requestState is refused before the handler runs (-32602).
    requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
    instructions:
      "Code mode: write one program that calls many tools, run it with execute_code. Use search_tools to find functions when the API is not listed.",
  });
  const server: Server = mcp.server;
  const tools: Tool[] = [
    {
      name: EXECUTE_CODE_TOOL,
      description: service.description,
      inputSchema: EXECUTE_SCHEMA as unknown as Tool["inputSchema"],
      annotations: { title: "Run a code-mode program", readOnlyHint: false, openWorldHint: true },
    },
    {
      name: SEARCH_TOOLS_TOOL,
      description: SEARCH_TOOLS_DESCRIPTION,
      inputSchema: SEARCH_TOOLS_INPUT_SCHEMA as unknown as Tool["inputSchema"],
      annotations: { title: "Search the tool API", readOnlyHint: true },
    },
    // Each skill is a tool of its own (docs/agents.md, "Skills"); an output schema only when it describes an object.
    ...service.skills.map((skill): Tool => {
      const { outputSchema, ...tool } = skillTool(skill);
      return {
        ...tool,
        inputSchema: tool.inputSchema as Tool["inputSchema"],
        ...(outputSchema?.type === "object" ? { outputSchema: outputSchema } : {}),
      };
    }),
  ];
  const skillNames = new Set(service.skills.map((skill) => skill.name));
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (name === SEARCH_TOOLS_TOOL) {
      const found = service.search(args ?? {});
      return found.ok
        ? { content: [{ type: "text", text: found.text }] }
        : { isError: true, content: [{ type: "text", text: `input error: ${found.message}` }] };
    }
    if (name !== EXECUTE_CODE_TOOL && !skillNames.has(name)) {
      return {
        isError: true,
        content: [{ type: "text", text: `Unknown tool "${name}". This server offers ${EXECUTE_CODE_TOOL}, ${SEARCH_TOOLS_TOOL} and its skills.` }],
      };
    }
    const caller = callerOf(server, ctx);
    const ask: AskClient = async (question, signal) => {
      const answer = await ctx.mcpReq
        .elicitInput({ mode: "form", message: approvalMessage(question), requestedSchema: APPROVE_SCHEMA }, { signal })
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          // The SDK refuses an answer that does not fill the form (an empty accept): that is no yes.
          return undefined;
        });
      return answer?.action === "accept" && answer.content?.approve === true;
    };
    const context = (asker: AskClient | undefined, whyNoAsk?: string): CallContext => ({
      clientName: caller.name,
      // The session is the unit of fairness on the thread pool (a stdio server has one client;
      // a 2026-07-28 client has no session, so its name stands for it).
      clientId: ctx.sessionId ?? (caller.modern ? `stateless:${caller.name}` : "stdio"),
      signal: ctx.mcpReq.signal,
      ...(asker ? { ask: asker } : whyNoAsk ? { whyNoAsk } : {}),
      onLog: (level, text) => {
        void ctx.mcpReq.log(LOG_LEVELS[level] ?? "info", text, name).catch(() => undefined);
      },
    });
    const toResult = (outcome: ExecuteOutcome) => (name === EXECUTE_CODE_TOOL ? outcomeResult(outcome) : skillResult(outcome));
    const run = (callContext: CallContext) =>
      name === EXECUTE_CODE_TOOL ? service.execute(args ?? {}, callContext) : service.callSkill(name, args ?? {}, callContext);
    if (!caller.modern) {
      return toResult(await run(context(server.getClientCapabilities()?.elicitation !== undefined ? ask : undefined)));
    }
    if (clientTakesTasks(ctx)) {
      // A long program answers as a task (program-tasks.ts); its approvals are the task's input.
      const canAsk = clientCanElicit(ctx);
      const answered = await programTasks.run(
        caller.name,
        (asker, signal, onCalls) => run({ ...context(canAsk ? asker : undefined), signal, onCalls }),
        (outcome) => toResult(outcome),
        (question) => inputRequired.elicit({ message: approvalMessage(question), requestedSchema: APPROVE_SCHEMA }),
        ctx.mcpReq.signal,
      );
      if (answered.kind === "done") return answered.result as CallToolResult;
      // Another instance may be asked about it next: its record is written before the client hears of it.
      await runs.flush(answered.task.taskId);
      // `content: []` as the SDK would add itself, except to a task already waiting for input
      // (its `inputRequests` stops the SDK from adding it, and a tools/call result needs one).
      return { content: [], resultType: "task", ...answered.task };
    }
    if (!clientCanElicit(ctx)) return toResult(await run(context(undefined)));
    // 2026-07-28: a destructive call is asked by answering `input_required`; the program waits
    // (modern-runs.ts) until the client sends the call again with the answer, to this instance
    // or another.
    const state = ctx.mcpReq.requestState<RoundState>();
    const answer = state === undefined ? undefined : acceptedContent(ctx.mcpReq.inputResponses, `approve_${state.n}`, APPROVAL);
    const step = await runs.approvalStep(state, answer?.approve === true, (asker, signal) => run({ ...context(asker), signal }), ctx.mcpReq.signal);
    if (step.kind === "gone") return { isError: true, content: [{ type: "text", text: `input error: ${step.message}` }] };
    if (step.kind === "done") return toResult(step.outcome);
    return inputRequired({
      inputRequests: { [`approve_${step.state.n}`]: inputRequired.elicit({ message: approvalMessage(step.question), requestedSchema: APPROVE_SCHEMA }) },
      requestState: await codec.mint(step.state, ctx),
    }) as unknown as CallToolResult;
  });
  const byId = z.object({ taskId: z.string().max(200) });
  const clientOfTask = (ctx: ServerContext) => {
    // A client that did not declare the extension on this request may not use its methods (-32021).
    if (!clientTakesTasks(ctx))
      throw new ProtocolError(-32021, "The tasks extension was not declared in this request's client capabilities", {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
      });
    return clientNameOf(ctx) ?? "MCP client";
  };
  server.setRequestHandler("tasks/get", { params: byId }, async ({ taskId }, ctx) => {
    try {
      return (await runs.taskGet(taskId, clientOfTask(ctx))) as unknown as Record<string, unknown>;
    } catch (error) {
      throw taskError(error);
    }
  });
  server.setRequestHandler("tasks/update", { params: byId }, async ({ taskId }, ctx) => {
    try {
      await runs.taskUpdate(taskId, clientOfTask(ctx), ctx.mcpReq.inputResponses);
      return {};
    } catch (error) {
      throw taskError(error);
    }
  });
  server.setRequestHandler("tasks/cancel", { params: byId }, async ({ taskId }, ctx) => {
    try {
      await runs.taskCancel(taskId, clientOfTask(ctx));
      return {};
    } catch (error) {
      throw taskError(error);
    }
  });
  // The skills, also as MCP skills for clients that read them (skills/list, skill:// files).
  service.published?.attach(mcp);
  return mcp;
}
