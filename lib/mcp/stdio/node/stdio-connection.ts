/**
 * An MCP server started as a local command, connected from a Node process (the headless runner,
 * evals, the code-mode server): the v2 SDK's stdio client transport and Client. Both eras,
 * negotiated on the connection itself (docs/mcp-client.md, "Protocol eras"): the SDK learns a
 * stdio server's era by starting a second copy of it unless the transport is a subclass of its
 * own, which it probes in place, and a local command must never run twice to connect once. A
 * server that answers `server/discover` speaks 2026-07-28; one that refuses it, or stays silent
 * for PROBE_TIMEOUT_MS, gets `initialize` on the same pipe. The verdict is kept per command for
 * this process, so a restart does not ask again; the server's own `protocolEra` setting wins. It
 * offers what host functions and a tool
 * world need (list tools, call a tool, close); the page reaches stdio servers through the app's
 * bridge instead (lib/mcp/stdio/server/stdio-bridge.ts). The child's stderr is kept (the last 4 KB)
 * for error messages, never printed.
 */
import { Client } from "@modelcontextprotocol/client";
import type { CallToolResult, ReadResourceResult, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ACCEPT_ALL } from "../../connection";
import type { CallToolOptions } from "../../live-connection";
import type { ServerConfig } from "../../types";
import { messageOf } from "../../../text/error-message";

/** A connected stdio server. */
export interface NodeStdioConnection {
  readonly capabilities: ServerCapabilities;
  /** The revision it speaks: "2026-07-28", or a 2025 one. */
  readonly protocolVersion: string;
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
/** How long a silent server may take to answer `server/discover` before it is taken for a 2025 one. */
export const PROBE_TIMEOUT_MS = 5_000;

/** The SDK probes a subclass of its stdio transport on the connection itself, not on a second copy. */
class InPlaceStdioTransport extends StdioClientTransport {}

/** Eras found per command line in this process. */
const verdicts = new Map<string, "modern" | "legacy">();

function eraMode(server: ServerConfig, key: string): "auto" | "legacy" | { pin: string } {
  const era = server.protocolEra ?? verdicts.get(key);
  return era === "legacy" ? "legacy" : era === "modern" ? { pin: "2026-07-28" } : "auto";
}

/** Starts the server's command and completes the MCP handshake, or throws with what the child said. */
export async function connectStdio(
  server: ServerConfig,
  options: { timeoutMs?: number; clientInfo?: { name: string; version: string } } = {},
): Promise<NodeStdioConnection> {
  if (!server.command) throw new Error(`${server.name}: a stdio server needs a command.`);
  const key = JSON.stringify([server.command, server.args ?? [], server.cwd ?? ""]);
  let stderr = "";
  const timeout = options.timeoutMs ?? 15_000;
  const attempt = async (mode: "auto" | "legacy" | { pin: string }) => {
    const transport = new InPlaceStdioTransport({
      command: server.command ?? "",
      args: server.args ?? [],
      env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
      ...(server.cwd ? { cwd: server.cwd } : {}),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
    });
    // Output schemas are checked by the host functions (validate.ts), as in the page: never a thrown callTool.
    const client = new Client(options.clientInfo ?? { name: "code-mode-playground", version: "0.1.0" }, {
      capabilities: {},
      jsonSchemaValidator: ACCEPT_ALL,
      versionNegotiation: { mode, probe: { timeoutMs: Math.min(PROBE_TIMEOUT_MS, timeout) } },
    });
    try {
      await client.connect(transport, { timeout });
      return { client, transport };
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
  };
  let connected: Awaited<ReturnType<typeof attempt>>;
  const mode = eraMode(server, key);
  try {
    try {
      connected = await attempt(mode);
    } catch (error) {
      // A server that exits when asked anything before `initialize` is a 2025 one: once more, without asking.
      if (mode !== "auto") throw error;
      connected = await attempt("legacy");
    }
  } catch (error) {
    const said = stderr.trim() === "" ? "" : ` It said: ${stderr.trim().split("\n").slice(-3).join(" / ")}`;
    throw new Error(`${server.name}: could not start "${server.command}": ${messageOf(error)}.${said}`, { cause: error });
  }
  const { client, transport } = connected;
  const era = client.getProtocolEra();
  if (era && server.protocolEra === undefined) verdicts.set(key, era);
  const exitListeners = new Set<(lastOutput: string) => void>();
  let closing = false;
  client.onclose = () => {
    if (closing) return;
    const output = stderr.trim().split("\n").slice(-3).join(" / ");
    for (const listener of [...exitListeners]) listener(output);
  };
  return {
    capabilities: client.getServerCapabilities() ?? {},
    protocolVersion: client.getNegotiatedProtocolVersion() ?? "",
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
