import { connectToServer } from "../../connection";
import { ConnectionError } from "../../connection-errors";
import type { Connector } from "../../connection-manager";
import type { McpConnection } from "../../live-connection";
import type { ConnectOptions } from "../../connection";
import { startStdioBridge, StdioBridgeClientError, type StdioBridgeConnection } from "./stdio-client";

/**
 * A connector that reaches stdio servers through the app's local bridge and everything else
 * directly. The bridge turns the child process into a Streamable HTTP endpoint, so the same
 * connection code (and the same status, errors and tool calls) serves both. `token` reads the
 * page's local token at connect time (local-token.ts).
 */
export function withStdioBridge(token: () => string | undefined, connector: Connector = connectToServer, start = startStdioBridge): Connector {
  return async (config, options) => {
    if (config.transport !== "stdio") return connector(config, options);
    if (!config.command) throw new ConnectionError("unsupported", "A stdio server needs a command to run.");
    // The era the person forced (a connect's own option first); otherwise the bridge asks the process.
    const forced = options.era ?? config.protocolEra;
    let bridge: StdioBridgeConnection;
    try {
      const launch = {
        command: config.command,
        args: config.args ?? [],
        env: config.env ?? {},
        ...(config.cwd ? { cwd: config.cwd } : {}),
        ...(options.freshProcess ? { fresh: true } : {}),
        ...(forced === "modern" || forced === "legacy" ? { era: forced } : {}),
      };
      bridge = await start(launch, { baseUrl: options.baseUrl, token: token(), ...(options.fetch ? { fetch: options.fetch } : {}) });
    } catch (error) {
      throw bridgeError(error);
    }
    try {
      // The era the bridge found on the process's own pipe (docs/mcp-client.md, "Protocol eras"):
      // asking again here would cost a server that exits on the question its one process.
      const connection = await connector(
        { ...config, transport: "streamable-http", url: bridge.url.href, headers: { ...bridge.headers }, env: {} },
        { ...withoutFresh(options), era: forced === "modern" || forced === "legacy" ? forced : bridge.era },
      );
      return closingBridge(connection, bridge);
    } catch (error) {
      await bridge.close().catch(() => undefined);
      throw error;
    }
  };
}

function withoutFresh(options: ConnectOptions): ConnectOptions {
  const { freshProcess: _fresh, ...rest } = options;
  return rest;
}

function bridgeError(error: unknown): ConnectionError {
  if (error instanceof ConnectionError) return error;
  if (error instanceof StdioBridgeClientError) {
    if (error.code === "no_token:stdio") return new ConnectionError("forbidden", error.message);
    if (error.code.startsWith("too_many:")) return new ConnectionError("busy", `The local stdio bridge said: ${error.message}`);
    const kind = error.code.startsWith("refused") ? "forbidden" : /^(start_failed|exited):/.test(error.code) ? "start-failed" : "protocol";
    return new ConnectionError(kind, `The local stdio bridge said: ${error.message}`);
  }
  return new ConnectionError("cors-or-network", `Could not reach the local stdio bridge: ${String(error)}`);
}

/**
 * The same connection, whose close() also ends the bridge session (the process stops once no
 * page holds it), with the process's stderr and id. A proxy, so everything else the connection
 * offers (tasks, skills, cache hints, whatever it grows) passes through unlisted.
 */
function closingBridge(connection: McpConnection, bridge: StdioBridgeConnection): McpConnection {
  const own: Partial<Record<keyof McpConnection, unknown>> = {
    stderr: () => bridge.stderr(),
    localProcess: { pid: bridge.pid, sharedWith: bridge.sharedWith },
    close: async () => {
      try {
        await connection.close();
      } finally {
        await bridge.close();
      }
    },
  };
  return new Proxy(connection, {
    get: (target, key, receiver): unknown =>
      typeof key === "string" && Object.hasOwn(own, key) ? own[key as keyof McpConnection] : (Reflect.get(target, key, receiver) as unknown),
  });
}
