/**
 * Turns connected servers into the sandbox's host functions: `await shipping.get_quote({…})`
 * becomes a checked MCP tools/call. Namespace and function names come from
 * lib/codemode/names.ts `resolveNames`, the same call the declarations generator makes, so the
 * functions the code can call are exactly the ones its types declare.
 *
 * Per call: arguments are checked against inputSchema (a mismatch throws before anything is
 * sent, with a message the model can act on); the call runs with the run's AbortSignal; an
 * `isError` result throws the server's message (ToolError); structuredContent is checked
 * against outputSchema and mismatches are reported, not thrown (the value is still what the
 * server said); the value returned is the unwrapped result.
 *
 * Secrets: this module only sees `callTool` and tool definitions. Headers and env stay inside
 * the connection; nothing here can put them into arguments, results or call info.
 */
import { isResourceReader } from "../mcp/resource-reader";
import type { CapWait } from "./call-caps";
import type { ServerRequestNote } from "../mcp/server-requests";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/client";
import { resolveNames } from "../codemode/names";
import type { HostFunction, HostFunctions } from "../sandbox/types";
import type { TaskReport } from "../mcp/tasks";
import type { McpConnection } from "../mcp/connection";
import { unwrapToolResult } from "../mcp/unwrap";
import { validateArguments, validateStructuredContent } from "../mcp/validate";
import type { OutputFinding } from "../mcp/validate";
import { isRecord } from "../text/json-value";

/** What the host learned about one call, for its timeline row. */
export interface HostCallReport {
  /** Original server and tool names (not the sanitised ones). */
  server: string;
  tool: string;
  /** What the server asked the person while serving the call (server-requests.ts). */
  serverRequests?: readonly ServerRequestNote[];
  /** What the server logged while serving the call (server-logs.ts), the first few. */
  serverLogs?: ReadonlyArray<{ level: string; text: string }>;
  /** The argument check failed with this message; the call was not sent. */
  validation?: string;
  /** inputSchema problems that made the argument check skip (the call was sent unchecked). */
  argumentWarnings?: string[];
  /** structuredContent vs outputSchema: mismatches and schema problems. Empty when it matched. */
  outputFindings?: OutputFinding[];
  /** Size of the raw result as JSON, in UTF-8 bytes. */
  resultBytes?: number;
  /** The server answered `isError: true`. */
  isError?: boolean;
  /** The raw result, as the server sent it. */
  result?: CallToolResult;
  /** The call waited for its server's cap on calls in flight (call-caps.ts). */
  capWait?: CapWait;
  /** The server turned the call into a task (tasks.ts): where it stands. */
  task?: TaskReport;
}

/** One connected server, as host functions need it. */
export interface HostServer {
  /** The name the person registered; sanitised into the namespace. */
  name: string;
  connection: Pick<McpConnection, "callTool"> & Partial<Pick<McpConnection, "readResource">>;
  tools: readonly Tool[];
}

/** Hooks into every call. */
export interface HostFunctionHooks {
  /** Called once per call that got as far as the argument check. Must not throw (it is guarded). */
  onCallInfo?: (callId: number, info: HostCallReport) => void;
  /** Progress notifications of a call; asking for them makes the server send them. */
  onProgress?: (callId: number, progress: Progress) => void;
}

/** How a server and its tools appear to the code. */
export interface NamespaceMapping {
  server: string;
  namespace: string;
  tools: Array<{ tool: string; fn: string }>;
}

/** Any list of such mappings, read-only (recorded runs carry them too). */
export type NameMap = ReadonlyArray<{ namespace: string; server: string; tools: ReadonlyArray<{ fn: string; tool: string }> }>;

/**
 * Who serves a function of the typed API: (namespace, fn) → the original server and tool names,
 * or the names themselves when the mapping has none. The one lookup every host-call wrapper uses.
 */
export function originalNames(names: NameMap): (namespace: string, fn: string) => { server: string; tool: string } {
  const map = new Map<string, { server: string; tool: string }>();
  for (const mapping of names) for (const { fn, tool } of mapping.tools) map.set(`${mapping.namespace}\u0000${fn}`, { server: mapping.server, tool });
  const servers = new Map(names.map((mapping) => [mapping.namespace, mapping.server]));
  return (namespace, fn) => map.get(`${namespace}\u0000${fn}`) ?? { server: servers.get(namespace) ?? namespace, tool: fn };
}

/** The host functions and the name mapping they use. */
export interface BuiltHostFunctions {
  host: HostFunctions;
  namespaces: NamespaceMapping[];
}

const encoder = new TextEncoder();

function byteSize(value: unknown): number {
  try {
    return encoder.encode(JSON.stringify(value) ?? "").length;
  } catch {
    return 0;
  }
}

function outputFindings(tool: Tool, result: CallToolResult): OutputFinding[] {
  if (tool.outputSchema === undefined) return [];
  if (result.structuredContent === undefined || result.structuredContent === null) {
    return [{ kind: "mismatch", path: "structuredContent", message: "is missing, though the tool declares an outputSchema" }];
  }
  return validateStructuredContent(tool.outputSchema, result.structuredContent);
}

function makeHostFunction(server: HostServer, tool: Tool, hooks: HostFunctionHooks): HostFunction {
  const report = (callId: number, info: Omit<HostCallReport, "server" | "tool">) => {
    try {
      hooks.onCallInfo?.(callId, { server: server.name, tool: tool.name, ...info });
    } catch {
      // A broken observer must not change what the code sees.
    }
  };
  return async (args, signal, { callId }) => {
    if (args !== undefined && !isRecord(args)) {
      const message = `Invalid arguments: ${tool.name} takes one object argument, not ${Array.isArray(args) ? "an array" : typeof args}`;
      report(callId, { validation: message });
      throw new Error(message);
    }
    const check = validateArguments(tool.inputSchema, args ?? {});
    if (!check.ok) {
      report(callId, { validation: check.message });
      throw new Error(check.message);
    }
    if (isResourceReader(tool)) {
      const reader = server.connection.readResource;
      if (!reader) throw new Error(`${server.name}: this host cannot read resources.`);
      const uri = (args as { uri?: unknown } | undefined)?.uri;
      const read = await reader(typeof uri === "string" ? uri : "");
      report(callId, { resultBytes: byteSize(read), outputFindings: [] });
      return { contents: read.contents };
    }
    const onProgress = hooks.onProgress;
    const result = await server.connection.callTool(tool.name, args ?? {}, {
      signal,
      onTask: (task) => report(callId, { task }),
      ...(onProgress ? { onProgress: (progress: Progress) => onProgress(callId, progress) } : {}),
    });
    const common = { ...(check.warnings.length > 0 ? { argumentWarnings: check.warnings } : {}), resultBytes: byteSize(result), result };
    if (result.isError) {
      report(callId, { ...common, isError: true });
    } else {
      report(callId, { ...common, outputFindings: outputFindings(tool, result) });
    }
    return unwrapToolResult(result);
  };
}

/** Builds host functions for the given servers (see the file comment). */
export function buildHostFunctions(servers: readonly HostServer[], hooks: HostFunctionHooks = {}): BuiltHostFunctions {
  const resolved = resolveNames(servers.map((s) => ({ name: s.name, tools: s.tools })));
  const entries: Array<[string, Record<string, HostFunction>]> = [];
  const namespaces: NamespaceMapping[] = [];
  servers.forEach((server, s) => {
    const namespace = resolved.servers[s] ?? "_";
    const fns = resolved.tools[s] ?? [];
    const tools = server.tools.map((tool, t) => ({ tool, fn: fns[t] ?? "_" }));
    entries.push([namespace, Object.fromEntries(tools.map(({ tool, fn }) => [fn, makeHostFunction(server, tool, hooks)]))]);
    namespaces.push({ server: server.name, namespace, tools: tools.map(({ tool, fn }) => ({ tool: tool.name, fn })) });
  });
  // fromEntries defines own properties, so a server or tool called "__proto__" stays a plain key.
  const host: HostFunctions = Object.fromEntries(entries);
  return { host, namespaces };
}
