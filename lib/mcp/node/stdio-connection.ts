/**
 * An MCP server started as a local command, connected from a Node process (the headless runner,
 * evals): the v2 SDK's stdio client transport and Client. It speaks 2025-11-25 (`initialize`):
 * the SDK learns a stdio server's era by starting a second copy of it, which a local command
 * must never cost (docs/ARCHITECTURE.md, "Protocol eras"). It offers what host functions and a tool
 * world need (list tools, call a tool, close); the page reaches stdio servers through the app's
 * bridge instead (lib/mcp/server/stdio-bridge.ts). The child's stderr is kept (the last 4 KB)
 * for error messages, never printed.
 */
import { Client } from "@modelcontextprotocol/client";
import type { CallToolResult, ReadResourceResult, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ACCEPT_ALL } from "../connection";
import type { CallToolOptions } from "../live-connection";
import type { ServerConfig } from "../types";

/** A connected stdio server. */
export interface NodeStdioConnection {
  readonly capabilities: ServerCapabilities;
  listTools(): Promise<Tool[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  callTool(name: string, args: Record<string, unknown> | undefined, options?: CallToolOptions): Promise<CallToolResult>;
  /** The child's process id. */
  readonly pid: number | null;
  /**
   * Called once when the connection ends without `close()` (the child exited or its pipes
   * broke), with the child's last lines of stderr: for an operator's log, never for a caller.
   * Returns the unsubscribe.
   */
  onExit(listener: (lastOutput: string) => void): () => void;
  close(): Promise<void>;
}

const STDERR_KEPT = 4_096;

/** Starts the server's command and completes the MCP handshake, or throws with what the child said. */
export async function connectStdio(
  server: ServerConfig,
  options: { timeoutMs?: number; clientInfo?: { name: string; version: string } } = {},
): Promise<NodeStdioConnection> {
  if (!server.command) throw new Error(`${server.name}: a stdio server needs a command.`);
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
    ...(server.cwd ? { cwd: server.cwd } : {}),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
  });
  // Output schemas are checked by the host functions (validate.ts), as in the page: never a thrown callTool.
  const client = new Client(options.clientInfo ?? { name: "code-mode-playground", version: "0.1.0" }, {
    capabilities: {},
    jsonSchemaValidator: ACCEPT_ALL,
    versionNegotiation: { mode: "legacy" },
  });
  const timeout = options.timeoutMs ?? 15_000;
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    await transport.close().catch(() => undefined);
    const said = stderr.trim() === "" ? "" : ` It said: ${stderr.trim().split("\n").slice(-3).join(" / ")}`;
    throw new Error(`${server.name}: could not start "${server.command}": ${error instanceof Error ? error.message : String(error)}.${said}`, { cause: error });
  }
  const exitListeners = new Set<(lastOutput: string) => void>();
  let closing = false;
  client.onclose = () => {
    if (closing) return;
    const output = stderr.trim().split("\n").slice(-3).join(" / ");
    for (const listener of [...exitListeners]) listener(output);
  };
  return {
    capabilities: client.getServerCapabilities() ?? {},
    pid: transport.pid,
    onExit(listener) {
      exitListeners.add(listener);
      return () => exitListeners.delete(listener);
    },
    readResource: (uri) => client.readResource({ uri }, { timeout }),
    async listTools() {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      return tools;
    },
    async callTool(name, args, callOptions = {}) {
      const result = await client.callTool(
        { name, ...(args === undefined ? {} : { arguments: args }) },
        {
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          ...(callOptions.timeoutMs === undefined ? {} : { timeout: callOptions.timeoutMs }),
          ...(callOptions.onProgress ? { onprogress: callOptions.onProgress } : {}),
        },
      );
      return result;
    },
    close: () => {
      closing = true;
      return client.close();
    },
  };
}
