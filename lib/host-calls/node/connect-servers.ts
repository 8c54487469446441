/**
 * Connects the enabled servers of a configuration from a Node process: HTTP servers directly
 * (relative URLs resolve against `baseUrl`), stdio servers by starting their command. Used by
 * the headless runner and the code-mode MCP server; if any server fails, the ones already
 * connected are closed and the error names the server. A stdio server that dies later is
 * started again (stdio-supervisor.ts).
 */
import { connectToServer, type McpConnection } from "../../mcp/connection";
import type { HostServer } from "../mcp-tools";
import type { ServerConfig } from "../../mcp/types";
import { superviseStdio, type SupervisedState, type SupervisedStdio } from "../../mcp/stdio/node/stdio-supervisor";
import { modelTools } from "../../mcp-apps/tool-ui";
import { withResourceReader } from "../../mcp/resource-reader";
import { messageOf } from "../../text/error-message";

/** Connected servers with their tools, and one close for all of them. */
export interface ConnectedServers {
  servers: HostServer[];
  /** Each stdio server's state (up with its pid, or down until its next start), by name. */
  stdioStates(): Record<string, SupervisedState>;
  close(): Promise<void>;
}

export async function connectServers(configs: readonly ServerConfig[], options: { baseUrl: string }): Promise<ConnectedServers> {
  const connections: Array<Pick<McpConnection, "close">> = [];
  const servers: HostServer[] = [];
  const supervised = new Map<string, SupervisedStdio>();
  const close = async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  };
  try {
    for (const server of configs) {
      if (!server.enabled) continue;
      let connection: Pick<McpConnection, "close" | "callTool" | "readResource" | "listTools" | "capabilities">;
      if (server.transport === "stdio") {
        const stdio = await superviseStdio(server);
        supervised.set(server.name, stdio);
        connection = stdio;
      } else {
        connection = await connectToServer(server, { baseUrl: options.baseUrl, proxyUrl: "/api/mcp/proxy", via: "direct" });
      }
      connections.push(connection);
      // Servers with resources get `$readResource` too, as in the page (resource-reader.ts).
      // Tools only an MCP App may call are not the model's (lib/mcp-apps/tool-ui.ts).
      const lister = connection as Partial<Pick<McpConnection, "listResources">>;
      const resources = lister.listResources && connection.capabilities.resources ? await lister.listResources().catch(() => undefined) : undefined;
      servers.push({ name: server.name, connection, tools: withResourceReader(modelTools(await connection.listTools()), connection.capabilities, resources) });
    }
  } catch (error) {
    await close();
    const message = messageOf(error);
    const failed = configs.filter((c) => c.enabled)[servers.length];
    throw new Error(failed ? `Server "${failed.name}" could not connect: ${message}` : message, { cause: error });
  }
  return { servers, close, stdioStates: () => Object.fromEntries([...supervised].map(([name, stdio]) => [name, stdio.state()])) };
}
