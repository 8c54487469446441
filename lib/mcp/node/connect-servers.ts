/**
 * Connects the enabled servers of a configuration from a Node process: HTTP servers directly
 * (relative URLs resolve against `baseUrl`), stdio servers by starting their command. Used by
 * the headless runner and the code-mode MCP server; if any server fails, the ones already
 * connected are closed and the error names the server.
 */
import { connectToServer, type McpConnection } from "../connection";
import type { HostServer } from "../host-functions";
import type { ServerConfig } from "../types";
import { connectStdio } from "./stdio-connection";
import { withResourceReader } from "../resource-reader";

/** Connected servers with their tools, and one close for all of them. */
export interface ConnectedServers {
  servers: HostServer[];
  close(): Promise<void>;
}

export async function connectServers(configs: readonly ServerConfig[], options: { baseUrl: string }): Promise<ConnectedServers> {
  const connections: Array<Pick<McpConnection, "close">> = [];
  const servers: HostServer[] = [];
  const close = async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  };
  try {
    for (const server of configs) {
      if (!server.enabled) continue;
      const connection =
        server.transport === "stdio"
          ? await connectStdio(server)
          : await connectToServer(server, { baseUrl: options.baseUrl, proxyUrl: "/api/mcp/proxy", via: "direct" });
      connections.push(connection);
      // Servers with resources get `$readResource` too, as in the page (resource-reader.ts).
      servers.push({ name: server.name, connection, tools: withResourceReader(await connection.listTools(), connection.capabilities) });
    }
  } catch (error) {
    await close();
    const message = error instanceof Error ? error.message : String(error);
    const failed = configs.filter((c) => c.enabled)[servers.length];
    throw new Error(failed ? `Server "${failed.name}" could not connect: ${message}` : message, { cause: error });
  }
  return { servers, close };
}
