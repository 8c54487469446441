/**
 * A stdio server that comes back when it dies: the code-mode MCP server and the headless runner
 * keep one of these per stdio server. When the child exits, calls fail at once with a sentence
 * that says the server is down and when the next start is (never a bare "Not connected"), and the
 * command is started again with a backoff (500 ms doubling to 30 s; back to 500 ms once a child
 * has lived 30 s). The child's last output goes to the operator's log only: it may quote
 * secrets. The page's servers do the same in lib/mcp/connection-manager.ts.
 */
import type { CallToolResult, ReadResourceResult, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import type { CallToolOptions } from "../../live-connection";
import type { ServerConfig } from "../../types";
import { connectStdio, type NodeStdioConnection } from "./stdio-connection";
import { messageOf } from "../../../text/error-message";

/** Whether the server can take calls now. */
export type SupervisedState = { state: "up"; pid: number | null; restarts: number } | { state: "down"; since: number; nextAttemptAt: number; restarts: number };

/** A stdio connection that restarts its child. */
export interface SupervisedStdio {
  readonly capabilities: ServerCapabilities;
  /** The tools listed at the first start; a restart that lists others is logged. */
  listTools(): Promise<Tool[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  callTool(name: string, args: Record<string, unknown> | undefined, options?: CallToolOptions): Promise<CallToolResult>;
  state(): SupervisedState;
  close(): Promise<void>;
}

export interface SuperviseOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that lived this long resets the backoff. */
  stableMs?: number;
  connect?: (server: ServerConfig) => Promise<NodeStdioConnection>;
  log?: (line: string) => void;
  now?: () => number;
}

/** Starts the server (throwing as connectStdio does when the first start fails) and keeps it running. */
export async function superviseStdio(server: ServerConfig, options: SuperviseOptions = {}): Promise<SupervisedStdio> {
  const initialDelayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const stableMs = options.stableMs ?? 30_000;
  const connect = options.connect ?? ((config: ServerConfig) => connectStdio(config));
  const log = options.log ?? ((line: string) => console.error(line));
  const now = options.now ?? Date.now;

  const first = await connect(server);
  const capabilities = first.capabilities;
  const tools = await first.listTools();
  let current: NodeStdioConnection | undefined;
  let startedAt = now();
  let delay = initialDelayMs;
  let restarts = 0;
  let down: { since: number; nextAttemptAt: number } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const schedule = () => {
    if (closed) return;
    const wait = delay;
    delay = Math.min(delay * 2, maxDelayMs);
    down = { since: down?.since ?? now(), nextAttemptAt: now() + wait };
    timer = setTimeout(() => void attempt(), wait);
    timer.unref?.();
  };

  const adopt = (connection: NodeStdioConnection) => {
    current = connection;
    startedAt = now();
    down = undefined;
    connection.onExit((lastOutput) => {
      if (current !== connection || closed) return;
      current = undefined;
      if (now() - startedAt >= stableMs) delay = initialDelayMs;
      schedule();
      const said = lastOutput === "" ? "" : ` Its last output: ${lastOutput}`;
      log(`stdio server "${server.name}" stopped; starting it again in ${Math.round((down?.nextAttemptAt ?? now()) - now())} ms.${said}`);
    });
  };

  const attempt = async () => {
    timer = undefined;
    if (closed) return;
    try {
      const connection = await connect(server);
      if (closed) {
        await connection.close().catch(() => undefined);
        return;
      }
      restarts += 1;
      adopt(connection);
      log(`stdio server "${server.name}" is running again (restart ${restarts}).`);
      const listed = await connection.listTools().catch(() => undefined);
      if (listed && JSON.stringify(listed.map((t) => t.name).sort()) !== JSON.stringify(tools.map((t) => t.name).sort()))
        log(`stdio server "${server.name}" lists other tools since its restart; callers see the tools of its first start until this server restarts.`);
    } catch (error) {
      schedule();
      log(
        `stdio server "${server.name}" could not start again: ${messageOf(error)}; next attempt in ${Math.round((down?.nextAttemptAt ?? now()) - now())} ms.`,
      );
    }
  };

  adopt(first);

  const live = (): NodeStdioConnection => {
    if (current) return current;
    if (closed) throw new Error(`Server "${server.name}" was closed.`);
    const seconds = Math.max(1, Math.ceil(((down?.nextAttemptAt ?? now()) - now()) / 1000));
    throw new Error(`Server "${server.name}" is down: its process ended. It is being started again (next attempt in ${seconds} s); try the call again then.`);
  };

  return {
    capabilities,
    listTools: () => Promise.resolve(tools),
    readResource: async (uri) => live().readResource(uri),
    callTool: async (name, args, callOptions) => live().callTool(name, args, callOptions),
    state: () =>
      current
        ? { state: "up", pid: current.pid, restarts }
        : { state: "down", since: down?.since ?? now(), nextAttemptAt: down?.nextAttemptAt ?? now(), restarts },
    async close() {
      closed = true;
      clearTimeout(timer);
      const connection = current;
      current = undefined;
      await connection?.close();
    },
  };
}
