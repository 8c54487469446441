/**
 * Keeps one connection per enabled server of a ServerRegistry and publishes an immutable
 * status per server: a store (lib/state/store.ts) whose snapshot is every status by id.
 * Follows the registry: a removed or disabled server is closed; a server whose address or
 * credentials change is reconnected; a new or re-enabled server is connected when `autoConnect`
 * is on. Re-lists tools on
 * notifications/tools/list_changed and records what changed.
 *
 * A connection that drops after it was made (a stdio server's process died, an HTTP server
 * restarted) is connected again by itself with a backoff, `restart` on the error status saying
 * when; after `attempts` failed tries it stays an error until the person reconnects. A failed
 * first connect is not retried: that is a wrong address or credentials, not an outage.
 *
 * Races: every connect gets a generation number per server; a result arriving after a newer
 * connect, a disconnect or a removal is closed and dropped.
 */
import { Store } from "../state/store";
import type { Tool } from "@modelcontextprotocol/client";
import { connectToServer } from "./connection";
import type { ConnectOptions, McpConnection } from "./connection";
import { ConnectionError } from "./connection-errors";
import type { ConnectionErrorData } from "./connection-errors";
import type { ServerRegistry } from "./registry";
import { diffTools, isEmptyDiff } from "./tool-diff";
import type { ServerConfig } from "./types";
import { RESTART_DEFAULTS, type RestartPlan, type RestartSettings, type ServerStatus } from "./server-status";
import { messageOf } from "../text/error-message";

/** Opens a connection; connectToServer by default, a fake in tests. */
export type Connector = (config: ServerConfig, options: ConnectOptions) => Promise<McpConnection>;

/** Options of a manager. */
export interface ConnectionManagerOptions {
  connectOptions: ConnectOptions;
  connector?: Connector;
  /** Connect servers as soon as they are added or enabled. Default true. */
  autoConnect?: boolean;
  /** Connecting again after a drop (defaults below); false turns it off. */
  restart?: false | Partial<RestartSettings>;
  now?: () => number;
}

const IDLE: ServerStatus = Object.freeze({ state: "idle" });

interface Entry {
  generation: number;
  /** The next connect starts a local server's process again (ConnectionManager.reconnect). */
  freshProcess?: boolean;
  config: ServerConfig;
  connection?: McpConnection;
  pending?: Promise<ServerStatus>;
  detach: Array<() => void>;
  refreshing?: Promise<void>;
  refreshAgain?: boolean;
  /** When the current connection was made (for the restart count's reset). */
  connectedAt?: number;
  /** Tries made since the last drop, and the timer of the next one. */
  restarts: number;
  restartTimer?: ReturnType<typeof setTimeout>;
  /** The error that started the current series of tries, and the tools the server had then. */
  lostWith?: ConnectionErrorData;
  lostTools?: readonly Tool[];
}

// Fields whose change means a new connection; a rename does not.
const CONNECTION_FIELDS = ["transport", "url", "headers", "command", "args", "env", "cwd", "protocolEra"] as const;

function connectionChanged(a: ServerConfig, b: ServerConfig): boolean {
  return CONNECTION_FIELDS.some((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}

function toErrorData(error: unknown): ConnectionErrorData {
  if (error instanceof ConnectionError) return error.toJSON();
  return { kind: "protocol", message: messageOf(error) };
}

/** Connections to the registry's servers; see the file comment. */
export class ConnectionManager extends Store<Readonly<Record<string, ServerStatus>>> {
  private readonly entries = new Map<string, Entry>();
  private readonly connector: Connector;
  private readonly now: () => number;
  private readonly unsubscribeRegistry: () => void;

  constructor(
    private readonly registry: ServerRegistry,
    private readonly options: ConnectionManagerOptions,
  ) {
    super(Object.freeze({}));
    this.connector = options.connector ?? connectToServer;
    this.now = options.now ?? Date.now;
    for (const config of registry.snapshot()) this.entries.set(config.id, { generation: 0, config, detach: [], restarts: 0 });
    this.unsubscribeRegistry = registry.subscribe(() => this.onRegistryChange());
  }

  /** Every server's status by id (absent means idle): the snapshot, a new object on every change. */
  private get statuses(): Readonly<Record<string, ServerStatus>> {
    return this.snapshot();
  }

  /** One server's status. */
  status(id: string): ServerStatus {
    return (Object.hasOwn(this.statuses, id) ? this.statuses[id] : undefined) ?? IDLE;
  }

  /** The live connection of a connected server. */
  connection(id: string): McpConnection | undefined {
    return this.status(id).state === "connected" ? this.entries.get(id)?.connection : undefined;
  }

  /** Connects every enabled server not yet connected or connecting; resolves when all have settled. */
  async connectAll(): Promise<void> {
    const ids = this.registry
      .snapshot()
      .filter((s) => s.enabled)
      .map((s) => s.id);
    await Promise.all(ids.map((id) => this.connect(id)));
  }

  /** Connects one server (no-op when connected or connecting); resolves with its status. */
  connect(id: string): Promise<ServerStatus> {
    const entry = this.entries.get(id);
    const state = this.status(id).state;
    if (!entry || state === "connected") return Promise.resolve(this.status(id));
    return entry.pending ?? this.open(id, entry);
  }

  /** Closes and connects again, whatever the state. */
  /**
   * Closes and connects again. `freshProcess` (the person's Reconnect on the card) starts a local
   * server's process again even when other tabs share it; they connect again to the new one.
   */
  async reconnect(id: string, options: { freshProcess?: boolean } = {}): Promise<ServerStatus> {
    const entry = this.entries.get(id);
    if (!entry) return IDLE;
    await this.close(entry);
    entry.restarts = 0;
    entry.freshProcess = options.freshProcess === true;
    return this.open(id, entry);
  }

  /**
   * Connects again every server whose connection dropped or whose connect could not get
   * through (`disconnected`, `cors-or-network`): what the page does when its channel to the app
   * is back (docs/channel.md, "The channel"). A stdio server gets a new process then.
   */
  async reconnectLost(): Promise<void> {
    const lost = [...this.entries.keys()].filter((id) => {
      const status = this.status(id);
      return status.state === "error" && (status.error.kind === "disconnected" || status.error.kind === "cors-or-network");
    });
    await Promise.all(lost.map((id) => this.reconnect(id)));
  }

  /** Closes a server's connection; its status becomes idle. */
  async disconnect(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    const closing = this.close(entry);
    this.setStatus(id, IDLE);
    await closing;
  }

  /** Lists the tools again and records the difference as `lastChange`. */
  refreshTools(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry?.connection) return Promise.resolve();
    // Notifications come in bursts: one refresh at a time, and one more after it if asked.
    if (entry.refreshing) {
      entry.refreshAgain = true;
      return entry.refreshing;
    }
    const generation = entry.generation;
    const connection = entry.connection;
    const run = async (): Promise<void> => {
      do {
        entry.refreshAgain = false;
        const tools = await connection.listTools().catch(() => undefined);
        const current = this.status(id);
        if (tools === undefined || entry.generation !== generation || current.state !== "connected") return;
        const diff = diffTools(current.tools, tools);
        this.setStatus(id, { ...current, tools: Object.freeze(tools), ...(isEmptyDiff(diff) ? {} : { lastChange: diff }) });
      } while (entry.refreshAgain);
    };
    entry.refreshing = run().finally(() => {
      entry.refreshing = undefined;
    });
    return entry.refreshing;
  }

  /** Stops following the registry and closes every connection. */
  async dispose(): Promise<void> {
    this.unsubscribeRegistry();
    await Promise.all([...this.entries.values()].map((entry) => this.close(entry)));
    this.entries.clear();
    this.set(Object.freeze({}));
  }

  private restartSettings(): RestartSettings {
    return { ...RESTART_DEFAULTS, ...(this.options.restart || {}) };
  }

  /** After a drop (or a failed try after one): the next try, or an error once the tries ran out. */
  private scheduleRestart(id: string, entry: Entry, latest?: ConnectionErrorData): void {
    const lost = entry.lostWith ?? latest ?? { kind: "disconnected", message: "The connection dropped." };
    const error = latest && latest.message !== lost.message ? { ...latest, message: `${lost.message} Trying again: ${latest.message}` } : lost;
    const settings = this.restartSettings();
    if (this.options.restart === false || entry.restarts >= settings.attempts || !entry.config.enabled) {
      entry.lostWith = undefined;
      entry.lostTools = undefined;
      entry.restarts = 0;
      this.setStatus(id, { state: "error", error });
      return;
    }
    const wait = Math.min(settings.initialMs * 2 ** entry.restarts, settings.maxMs);
    entry.restarts += 1;
    const restart: RestartPlan = { attempt: entry.restarts, of: settings.attempts, at: this.now() + wait };
    this.setStatus(id, { state: "error", error, restart, ...(entry.lostTools ? { tools: entry.lostTools } : {}) });
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      if (this.entries.get(id) !== entry) return;
      void this.open(id, entry, restart);
    }, wait);
  }

  private open(id: string, entry: Entry, restart?: RestartPlan): Promise<ServerStatus> {
    const generation = ++entry.generation;
    const config = entry.config;
    this.setStatus(id, restart ? { state: "connecting", restart, ...(entry.lostTools ? { tools: entry.lostTools } : {}) } : { state: "connecting" });
    const stale = () => entry.generation !== generation || this.entries.get(id) !== entry;
    const run = async (): Promise<ServerStatus> => {
      let connection: McpConnection | undefined;
      try {
        const fresh = entry.freshProcess;
        entry.freshProcess = false;
        connection = await this.connector(config, fresh ? { ...this.options.connectOptions, freshProcess: true } : this.options.connectOptions);
        if (stale()) {
          await connection.close();
          return this.status(id);
        }
        const live = connection;
        entry.connection = live;
        entry.detach = [
          live.onToolsListChanged(() => void this.refreshTools(id)),
          live.onLost((error) => {
            if (entry.generation !== generation) return;
            const lived = this.now() - (entry.connectedAt ?? this.now());
            const before = this.status(id);
            void this.close(entry);
            entry.lostTools = before.state === "connected" ? before.tools : undefined;
            if (lived >= this.restartSettings().stableMs) entry.restarts = 0;
            entry.lostWith = error.toJSON();
            this.scheduleRestart(id, entry);
          }),
        ];
        const [tools, prompts, resources] = await Promise.all([
          live.listTools(),
          // A broken prompts or resources list does not make the tools unusable.
          live.listPrompts().catch(() => []),
          live.listResources().catch(() => []),
        ]);
        if (stale()) return this.status(id);
        entry.connectedAt = this.now();
        entry.lostWith = undefined;
        entry.lostTools = undefined;
        this.setStatus(id, {
          state: "connected",
          serverInfo: live.serverInfo,
          protocolVersion: live.protocolVersion,
          capabilities: live.capabilities,
          ...(live.instructions ? { instructions: live.instructions } : {}),
          transport: live.transport,
          via: live.via,
          ...(live.tasks ? { tasks: true as const } : {}),
          ...(live.skills ? { skills: true as const } : {}),
          ...(live.toolsTtlMs?.() ? { toolsTtlMs: live.toolsTtlMs() } : {}),
          ...(live.localProcess ? { localProcess: live.localProcess } : {}),
          tools: Object.freeze(tools),
          prompts: Object.freeze(prompts),
          resources: Object.freeze(resources),
          connectedAt: this.now(),
        });
      } catch (error) {
        if (stale()) return this.status(id);
        const { lostWith, lostTools } = entry;
        if (entry.connection === connection) await this.close(entry);
        else await connection?.close().catch(() => undefined);
        const data = toErrorData(error);
        if (lostWith) {
          // A try after a drop: the next one, until the tries run out.
          entry.lostWith = lostWith;
          entry.lostTools = lostTools;
          this.scheduleRestart(id, entry, data);
        } else if (data.kind === "busy") {
          // A cap that clears when something else ends (another tab's servers, a reloaded page's):
          // tried again like a drop, not left for the person to notice.
          entry.lostWith = data;
          this.scheduleRestart(id, entry);
        } else {
          this.setStatus(id, { state: "error", error: data });
        }
      }
      return this.status(id);
    };
    const pending = run().finally(() => {
      if (entry.pending === pending) entry.pending = undefined;
    });
    entry.pending = pending;
    return pending;
  }

  /** Closes the entry's connection and makes any connect in flight stale. */
  private async close(entry: Entry): Promise<void> {
    entry.generation++;
    entry.pending = undefined;
    clearTimeout(entry.restartTimer);
    entry.restartTimer = undefined;
    entry.lostWith = undefined;
    entry.lostTools = undefined;
    for (const detach of entry.detach) detach();
    entry.detach = [];
    const connection = entry.connection;
    entry.connection = undefined;
    await connection?.close().catch(() => undefined);
  }

  private onRegistryChange(): void {
    const next = new Map(this.registry.snapshot().map((s) => [s.id, s]));
    for (const [id, entry] of [...this.entries]) {
      if (next.has(id)) continue;
      this.entries.delete(id);
      void this.close(entry);
      this.removeStatus(id);
    }
    for (const [id, config] of next) {
      const entry = this.entries.get(id);
      if (!entry) {
        this.entries.set(id, { generation: 0, config, detach: [], restarts: 0 });
        if (config.enabled && (this.options.autoConnect ?? true)) void this.connect(id);
        continue;
      }
      const before = entry.config;
      entry.config = config;
      const active = this.status(id).state !== "idle";
      if (!config.enabled) {
        if (before.enabled || active) void this.disconnect(id);
      } else if (!before.enabled) {
        if (this.options.autoConnect ?? true) void this.connect(id);
      } else if (active && connectionChanged(before, config)) {
        void this.reconnect(id);
      }
    }
  }

  private setStatus(id: string, status: ServerStatus): void {
    this.set(Object.freeze({ ...this.statuses, [id]: Object.freeze(status) }));
  }

  private removeStatus(id: string): void {
    if (!Object.hasOwn(this.statuses, id)) return;
    const { [id]: _removed, ...rest } = this.statuses;
    this.set(Object.freeze(rest));
  }
}
