/**
 * The code-mode MCP server as an MCP `Server` (the v2 SDK's low-level server, so the tools carry
 * exactly the JSON Schemas in lib/codemode/system-prompt.ts): `execute_code` and
 * `search_tools`, logging (console lines of a program become log notifications at the level
 * the client set). One Server per 2025-11-25 session or 2026-07-28 request, all over one
 * CodeModeService; the transports (stdio, Streamable HTTP) connect it and pick the era
 * (docs/ARCHITECTURE.md, "The code-mode MCP server").
 */
import { Server } from "@modelcontextprotocol/server";
import type { CallToolResult, LoggingLevel, ServerContext, Tool } from "@modelcontextprotocol/server";
import {
  EXECUTE_CODE_INPUT_SCHEMA,
  EXECUTE_CODE_TOOL,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_INPUT_SCHEMA,
  SEARCH_TOOLS_TOOL,
} from "../codemode/system-prompt";
import type { AskClient, CallContext, CodeModeService, ExecuteOutcome } from "./service";
import { skillTool } from "../skills/skill";

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
  const structured = typeof value === "object" && value !== null && !Array.isArray(value);
  return {
    content: [{ type: "text", text: JSON.stringify(value ?? null, null, 2) }],
    ...(structured ? { structuredContent: value } : {}),
  };
}

/** Who sent a request: the 2026-07-28 envelope names the client on each request, a 2025 session once. */
function callerOf(server: Server, ctx: ServerContext): { name: string; modern: boolean } {
  const envelope = ctx.mcpReq.envelope;
  if (envelope) {
    const info = (envelope as Record<string, { name?: unknown } | undefined>)["io.modelcontextprotocol/clientInfo"];
    return { name: typeof info?.name === "string" ? info.name : "MCP client", modern: true };
  }
  return { name: server.getClientVersion()?.name ?? "MCP client", modern: false };
}

/** A Server for one 2025-11-25 session or one 2026-07-28 request. */
export function createCodeModeMcpServer(service: CodeModeService): Server {
  const server = new Server(CODE_MODE_SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions:
      "Code mode: write one program that calls many tools, run it with execute_code. Use search_tools to find functions when the API is not listed.",
  });
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
    // Each skill is a tool of its own (docs/ARCHITECTURE.md, "Skills"); an output schema only when it describes an object.
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
    // A 2026-07-28 request cannot be asked back mid-call (no server-to-client requests): "ask"
    // then refuses, as for a 2025 client without elicitation.
    const canAsk = !caller.modern && server.getClientCapabilities()?.elicitation !== undefined;
    const ask: AskClient = async (question, signal) => {
      const answer = await ctx.mcpReq
        .elicitInput(
          {
            mode: "form",
            message: `A program wants to call ${question.server}.${question.tool}, which is marked destructive, with ${JSON.stringify(question.args)}. Allow it?`,
            requestedSchema: {
              type: "object",
              // No default, and only an explicit `true` allows the call: several clients accept a
              // form with its defaults filled in, so a default of true would approve a
              // destructive call without a person (docs/ARCHITECTURE.md, "The code-mode MCP server").
              properties: {
                approve: { type: "boolean", title: "Allow this call", description: "Tick to allow this destructive call; anything else denies it." },
              },
              required: ["approve"],
            },
          },
          { signal },
        )
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          // The SDK refuses an answer that does not fill the form (an empty accept): that is no yes.
          return undefined;
        });
      return answer?.action === "accept" && answer.content?.approve === true;
    };
    const context: CallContext = {
      clientName: caller.name,
      // The session is the unit of fairness on the thread pool (a stdio server has one client;
      // a 2026-07-28 client has no session, so its name stands for it).
      clientId: ctx.sessionId ?? (caller.modern ? `stateless:${caller.name}` : "stdio"),
      signal: ctx.mcpReq.signal,
      ...(canAsk ? { ask } : caller.modern ? { whyNoAsk: "a 2026-07-28 client cannot be asked in the middle of a call here yet" } : {}),
      onLog: (level, text) => {
        void ctx.mcpReq.log(LOG_LEVELS[level] ?? "info", text, name).catch(() => undefined);
      },
    };
    if (name !== EXECUTE_CODE_TOOL) return skillResult(await service.callSkill(name, args ?? {}, context));
    return outcomeResult(await service.execute(args ?? {}, context));
  });
  return server;
}
