/**
 * The MCP Apps a run's calls showed (docs/mcp-apps.md, "MCP Apps"): for each tool with an app
 * whose server is connected, its definition and its resource, read once per connection and URI,
 * by appKey, so the run's record keeps them and shows them offline (a replay, a run file, a
 * shared link). Pure: the connected servers and their connections are injected.
 */
import type { McpConnection } from "../mcp/live-connection";
import { appResourceFrom, type AppResource } from "../mcp-apps/app-resource";
import { appKey, recordApp, type RecordedApp } from "../mcp-apps/recorded-app";
import { toolResourceUri } from "../mcp-apps/tool-ui";
import { recordedCalls, type RunRecord } from "../timeline/run-record";
import type { ConnectedServer } from "./page-servers";

export class RunApps {
  readonly #resources = new WeakMap<McpConnection, Map<string, Promise<AppResource | undefined>>>();

  constructor(
    private readonly connected: () => readonly ConnectedServer[],
    private readonly connectionOf: (serverId: string) => McpConnection | undefined,
    private readonly origin: () => string | undefined,
  ) {}

  /** The apps of the record's calls' tools, by appKey; a tool whose server is not connected has none. */
  async appsOf(record: RunRecord): Promise<Readonly<Record<string, unknown>>> {
    const apps: Record<string, RecordedApp> = {};
    const connected = this.connected();
    const seen = new Set<string>();
    for (const call of recordedCalls(record)) {
      const key = appKey(call.server, call.tool);
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = connected.find((s) => s.config.name === call.server);
      const tool = entry?.tools.find((t) => t.name === call.tool);
      const uri = tool && toolResourceUri(tool);
      const connection = entry && this.connectionOf(entry.config.id);
      if (!tool || !uri || !connection) continue;
      const resource = await this.#resource(connection, uri);
      if (resource) apps[key] = recordApp(tool, resource);
    }
    return apps;
  }

  #resource(connection: McpConnection, uri: string): Promise<AppResource | undefined> {
    let byUri = this.#resources.get(connection);
    if (!byUri) this.#resources.set(connection, (byUri = new Map<string, Promise<AppResource | undefined>>()));
    let read = byUri.get(uri);
    if (!read) {
      read = connection.readResource(uri).then(
        (result) => {
          const app = appResourceFrom(result, uri, this.origin());
          return "error" in app ? undefined : app;
        },
        () => undefined,
      );
      byUri.set(uri, read);
    }
    return read;
  }
}
