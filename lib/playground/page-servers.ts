/**
 * The page's MCP servers (docs/page-state.md, "Page state"): the registry, their live
 * connections, what they ask the person and log, their roots and call caps, and the catalog of
 * what the connected ones offer, created once per page. `view` is the store the panels read;
 * `hostFor` builds a run's host functions over the connections open now. The browser's
 * collaborators (OAuth, the stdio bridge, the app's fetch) are passed in, so this runs in Node too.
 */
import type { ServerRegistry } from "../mcp/registry";
import { ConnectionManager } from "../mcp/connection-manager";
import type { ServerStatus } from "../mcp/server-status";
import type { ConnectOptions } from "../mcp/connection";
import type { Connector } from "../mcp/connection-manager";
import { TestCallStore } from "../mcp/test-calls";
import { buildHostFunctions, originalNames, type HostCallReport } from "../host-calls/mcp-tools";
import { CallsInFlight, ServerRequestBroker, withNote, type ServerRequestNote } from "../mcp/server-requests";
import { PublishedSkillsStore } from "../mcp/published-skills";
import { ServerTasksStore } from "../mcp/server-tasks";
import { eraOfVersion } from "../mcp/protocol-era";
import { ServerLogStore } from "../mcp/server-logs";
import type { RootsStore } from "../mcp/roots";
import { isResourceReader, withResourceReader } from "../mcp/resource-reader";
import { callableByApp, modelTools } from "../mcp-apps/tool-ui";
import type { RunRecord } from "../timeline/run-record";
import { RunApps } from "./run-apps";
import { notConnectedNamespaces, unavailableServer } from "../host-calls/unavailable";
import { CallCaps } from "../host-calls/call-caps";
import type { ServerConfig } from "../mcp/types";
import { mapHost } from "../host-calls/host-table";
import { withToolDiscovery } from "../mcp/tool-discovery";
import { createToolCatalog, type ToolCatalog } from "../codemode/tool-catalog";
import type { ServerTools } from "../codemode/types";
import type { CallProgress } from "../timeline/call-records";
import type { HostFunctions } from "../sandbox/types";
import { Store } from "../state/store";
import type { ReadResourceResult, Tool } from "@modelcontextprotocol/client";
import type { ReadableStore } from "../state/store";
import { skillsServer, type Skill } from "../skills/skill";
import type { TextStorage } from "../storage/key-value";
import { ServerExtrasStore } from "../mcp/server-extras";
import { ServerActions, type SignInFlow } from "./server-actions";

/** A connected server with every tool it listed, app-only ones too (the catalog, what the model and programs see, leaves those out). */
export interface ConnectedServer {
  config: ServerConfig;
  tools: readonly Tool[];
}

/** What the panels read: the registered servers, their statuses, the connected ones and their catalog. */
export interface ServersView {
  servers: readonly ServerConfig[];
  statuses: Readonly<Record<string, ServerStatus>>;
  connected: readonly ConnectedServer[];
  /** The typed API, prompts, search and classic tools of the connected servers; a new one only when they change. */
  catalog: ToolCatalog;
}

export interface PageServersOptions {
  registry: ServerRegistry;
  /** How connections are made (the app's channel, the proxy, which origins may be fetched directly). */
  connectOptions: ConnectOptions;
  /** OAuth for a server, when it needs it. */
  oauth?: ConnectOptions["oauth"];
  roots?: RootsStore;
  /** Opens a connection (the browser's adds the stdio bridge). */
  connector?: Connector;
  restart?: ConstructorParameters<typeof ConnectionManager>[1]["restart"];
  /** The skills programs and the model may use: the catalog declares them under `skills` (lib/skills/). */
  skills?: { store: ReadableStore<unknown>; trusted: () => readonly Skill[] };
  /** Where the tasks calls started are kept across reloads (default: nowhere, this page only). */
  taskStorage?: TextStorage;
}

/** How often tasks no call follows any more are asked where they stand. */
const TASK_REFRESH_MS = 1_000;

const NO_SKILLS: readonly Skill[] = [];

/** Server logs a call's row shows; the server's own view keeps the rest. */
const MAX_LOGS_PER_CALL = 20;

class ServersViewStore extends Store<ServersView> {
  refresh(next: ServersView): void {
    this.set(next);
  }
}

/** The same servers with the same tools (a status change that did not touch what is connected). */
function sameConnected(a: readonly ConnectedServer[], b: readonly ConnectedServer[]): boolean {
  return a.length === b.length && a.every((s, i) => s.config === b[i]?.config && s.tools === b[i].tools);
}

export class PageServers {
  readonly registry: ServerRegistry;
  readonly manager: ConnectionManager;
  readonly roots: RootsStore | undefined;
  /** What servers ask the person during a call (elicitation, sampling), waiting for an answer. */
  readonly serverRequests = new ServerRequestBroker();
  /** What each server logged (notifications/message), by server name. */
  readonly logs = new ServerLogStore();
  /** The Tools view's test calls, which outlive the view. */
  readonly testCalls = new TestCallStore(
    (serverId) => this.manager.connection(serverId),
    undefined,
    (serverId, tool, report) => this.tasks.track(serverId, this.registry.get(serverId)?.name ?? serverId, tool, report),
  );
  /** The skills servers publish (the Skills extension), listed when a person opens a card's section. */
  readonly publishedSkills: PublishedSkillsStore;
  /** The tasks the page's calls started, per server, kept across reloads (lib/mcp/server-tasks.ts). */
  readonly tasks: ServerTasksStore;
  readonly view: ServersViewStore;
  readonly #inFlight = new CallsInFlight();
  readonly #caps: CallCaps;
  readonly #unsubscribe: Array<() => void> = [];
  /** Each connected server's tools as listed, and as the API sees them: a status change keeps the same array. */
  readonly #toolsSeen = new WeakMap<readonly Tool[], readonly Tool[]>();
  readonly #runApps = new RunApps(
    () => this.view.snapshot().connected,
    (id) => this.manager.connection(id),
    () => this.#appOrigin,
  );

  readonly #appOrigin: string | undefined;
  /** The page's origin, which MCP Apps' declared origins are checked against. */
  get appOrigin(): string | undefined {
    return this.#appOrigin;
  }
  readonly #skills: (() => readonly Skill[]) | undefined;

  constructor(options: PageServersOptions) {
    this.#skills = options.skills?.trusted;
    const { registry, roots } = options;
    this.#appOrigin = URL.canParse(options.connectOptions.baseUrl) ? new URL(options.connectOptions.baseUrl).origin : undefined;
    this.registry = registry;
    this.roots = roots;
    const inFlight = this.#inFlight;
    this.manager = new ConnectionManager(registry, {
      connectOptions: {
        ...options.connectOptions,
        ...(options.oauth ? { oauth: options.oauth } : {}),
        ...(roots ? { roots: (config: ServerConfig) => roots.get(config.id) } : {}),
        elicit: (config, params, signal) => this.serverRequests.elicit(config.name, params, signal, inFlight.latest(config.name)),
        sample: (config, params, signal) => this.serverRequests.sample(config.name, params, signal, inFlight.latest(config.name)),
        onLog: (config, params) => {
          const call = inFlight.latest(config.name);
          const entry = this.logs.add(config.name, params, call?.callId);
          if (entry && call?.log) call.log({ level: entry.level, text: entry.text });
        },
      },
      ...(options.connector ? { connector: options.connector } : {}),
      ...(options.restart === undefined ? {} : { restart: options.restart }),
    });
    this.publishedSkills = new PublishedSkillsStore((id) => this.manager.connection(id));
    this.tasks = new ServerTasksStore(options.taskStorage ?? { getItem: () => null, setItem: () => undefined }, (id) => this.manager.connection(id));
    // Tasks nobody's call follows (after a reload) are asked where they stand until they end.
    const refreshTasks = setInterval(() => void this.tasks.refresh(), TASK_REFRESH_MS);
    (refreshTasks as { unref?: () => void }).unref?.();
    this.#unsubscribe.push(() => clearInterval(refreshTasks));
    // A server that reconnects may publish other skills: what was listed of it is dropped.
    let seenConnections = new Map<string, unknown>();
    this.#unsubscribe.push(
      this.manager.subscribe(() => {
        const next = new Map(registry.snapshot().map((s) => [s.id, this.manager.connection(s.id)]));
        for (const [id, connection] of seenConnections) if (next.get(id) !== connection) this.publishedSkills.forget(id);
        seenConnections = next;
      }),
    );
    // Each server's cap on calls in flight holds over every run of the page (lib/host-calls/call-caps.ts).
    this.#caps = new CallCaps((name) => registry.snapshot().find((s) => s.name === name)?.maxCallsInFlight);
    this.view = new ServersViewStore(this.#compute(undefined));
    const refresh = () => this.view.refresh(this.#compute(this.view.snapshot()));
    this.#unsubscribe.push(registry.subscribe(refresh), this.manager.subscribe(refresh));
    // A server that leaves the list takes its card's resources and subscriptions with it.
    this.#unsubscribe.push(
      registry.subscribe(() => {
        const ids = new Set(registry.snapshot().map((s) => s.id));
        for (const [id, extras] of this.#extras) if (!ids.has(id)) this.#dropExtras(id, extras);
      }),
    );
    if (options.skills) this.#unsubscribe.push(options.skills.store.subscribe(refresh));
    // A server connected while its roots change hears about it.
    if (roots) this.#unsubscribe.push(roots.subscribe((id) => void this.manager.connection(id)?.notifyRootsChanged()));
  }

  /** The connected servers' names and tools now (what a run's namespaces are). */
  readonly servers = () => this.view.snapshot().catalog.servers;

  /** Connects every enabled server. */
  start(): Promise<void> {
    return this.manager.connectAll();
  }

  /**
   * Resolves once no server is connecting any more, after `maxMs` at the latest, or when `signal`
   * aborts: a chat message sent while the page's servers are still connecting (an example prompt
   * clicked as the page loads) goes to the model with their tools, not without them.
   */
  async settled(signal: AbortSignal, maxMs = 10_000): Promise<void> {
    const connecting = Object.entries(this.manager.snapshot())
      .filter(([, status]) => status.state === "connecting")
      .map(([id]) => this.manager.connect(id));
    if (connecting.length === 0 || signal.aborted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.allSettled(connecting),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxMs);
        onAbort = resolve;
        signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }

  /** Connects again the servers a dropped channel lost. */
  reconnectLost(): Promise<void> {
    return this.manager.reconnectLost();
  }

  /**
   * Host functions for one run: one namespace per connected server, and the servers being tried
   * again keep theirs (their calls fail saying so, lib/host-calls/unavailable.ts). Each call is
   * registered while its server serves it, so an elicitation or a log lands on its row.
   */
  readonly hostFor = (
    onCallInfo: (callId: number, info: HostCallReport) => void,
    onProgress?: (callId: number, progress: CallProgress) => void,
  ): HostFunctions => {
    const { servers, statuses, connected } = this.view.snapshot();
    const live = connected.flatMap((s) => {
      const connection = this.manager.connection(s.config.id);
      return connection ? [{ name: s.config.name, connection, tools: modelTools(s.tools) }] : [];
    });
    const down = servers.flatMap((config) => (config.enabled ? (unavailableServer(config.name, statuses[config.id]) ?? []) : []));
    const calls = this.#hostOf([...live, ...down], onCallInfo, onProgress);
    // Programs can discover the connected servers' functions while they run (lib/mcp/tool-discovery.ts).
    return withToolDiscovery(calls, this.view.snapshot().catalog);
  };

  /** The namespaces of registered servers that programs cannot call now, with why (lib/host-calls/unavailable.ts). */
  readonly notConnected = (): ReadonlyMap<string, string> => {
    const { servers, statuses, connected } = this.view.snapshot();
    return notConnectedNamespaces(servers, statuses, new Set(connected.map((s) => s.config.name)));
  };

  /** What the server panels do to the servers (lib/playground/server-actions.ts); `oauth` signs in where the page can. */
  actions(oauth?: SignInFlow): ServerActions {
    return new ServerActions(this.registry, this.manager, oauth);
  }

  readonly #extras = new Map<string, ServerExtrasStore>();

  /** A server card's resources and prompts (lib/mcp/server-extras.ts), one store per server id, kept while the server is listed. */
  readonly extrasFor = (serverId: string): ServerExtrasStore => {
    let extras = this.#extras.get(serverId);
    if (!extras) this.#extras.set(serverId, (extras = new ServerExtrasStore(() => this.manager.connection(serverId))));
    return extras;
  };

  #dropExtras(id: string, extras: ServerExtrasStore): void {
    this.#extras.delete(id);
    void extras.close();
  }

  /** Reads a running local (stdio) server's recent stderr; undefined for a remote server or one not running. */
  readonly stderrOf = (serverId: string): (() => Promise<string>) | undefined => this.manager.connection(serverId)?.stderr;

  /** Every tool the server called `server` lists now (app-only ones too), or undefined when it is not connected. */
  readonly toolsOf = (server: string): readonly Tool[] | undefined => this.view.snapshot().connected.find((s) => s.config.name === server)?.tools;

  /** Reads a resource from the server called `server`; rejects saying so when it is not connected. */
  readonly readResourceOf = (server: string, uri: string): Promise<ReadResourceResult> => {
    const entry = this.view.snapshot().connected.find((s) => s.config.name === server);
    const connection = entry && this.manager.connection(entry.config.id);
    return connection ? connection.readResource(uri) : Promise.reject(new Error(`${server} is not connected.`));
  };

  /**
   * Host functions for the calls of one server's MCP App (docs/mcp-apps.md, "MCP Apps"): that
   * server alone, with every tool an app may call (app-only ones too), wrapped as a run's are (the
   * server's cap, what it asks and logs tied to the call). Undefined when it is not connected.
   */
  readonly appHostFor = (
    server: string,
    onCallInfo: (callId: number, info: HostCallReport) => void,
    onProgress?: (callId: number, progress: CallProgress) => void,
  ): { host: HostFunctions; server: ServerTools } | undefined => {
    const entry = this.view.snapshot().connected.find((s) => s.config.name === server);
    const connection = entry && this.manager.connection(entry.config.id);
    if (!entry || !connection) return undefined;
    const tools = entry.tools.filter((tool) => callableByApp(tool) && !isResourceReader(tool));
    return { host: this.#hostOf([{ name: server, connection, tools }], onCallInfo, onProgress), server: { name: server, tools } };
  };

  /**
   * The MCP Apps of a run's calls (docs/mcp-apps.md, "MCP Apps"), by appKey, to keep with the
   * run's record (lib/playground/run-apps.ts).
   */
  readonly appsOf = (record: RunRecord): Promise<Readonly<Record<string, unknown>>> => this.#runApps.appsOf(record);

  /** Whether the server called `name` is connected on 2026-07-28 (its questions come as rounds of a call). */
  #speaksModern(name: string): boolean {
    const id = this.registry.snapshot().find((s) => s.name === name)?.id;
    const status = id === undefined ? undefined : this.manager.status(id);
    return status?.state === "connected" && eraOfVersion(status.protocolVersion) === "modern";
  }

  #hostOf(
    servers: Parameters<typeof buildHostFunctions>[0],
    onCallInfo: (callId: number, info: HostCallReport) => void,
    onProgress?: (callId: number, progress: CallProgress) => void,
  ): HostFunctions {
    // A call that became a task is also listed on its server's card, where it outlives the run and a reload.
    const trackingInfo: typeof onCallInfo = (callId, info) => {
      if (info.task) {
        const id = this.registry.snapshot().find((s) => s.name === info.server)?.id;
        if (id !== undefined) this.tasks.track(id, info.server, info.tool, info.task);
      }
      onCallInfo(callId, info);
    };
    const built = buildHostFunctions(servers, { onCallInfo: trackingInfo, ...(onProgress ? { onProgress } : {}) });
    const namespaces = built.namespaces;
    const host = this.#caps.wrap(built.host, namespaces, onCallInfo);
    const whereOf = originalNames(namespaces);
    const calls = mapHost(host, (fn, namespace, name) => {
      const { server, tool } = whereOf(namespace, name);
      return async (args, signal, call) => {
        let notes: ServerRequestNote[] = [];
        const logged: Array<{ level: string; text: string }> = [];
        const end = this.#inFlight.begin(server, {
          callId: call.callId,
          signal,
          ...(call.suspendClock ? { suspendClock: call.suspendClock } : {}),
          note: (note) => {
            notes = withNote(notes, note, { rounds: this.#speaksModern(server) });
            onCallInfo(call.callId, { server, tool, serverRequests: notes });
          },
          log: (entry) => {
            if (logged.length >= MAX_LOGS_PER_CALL) return;
            logged.push(entry);
            onCallInfo(call.callId, { server, tool, serverLogs: [...logged] });
          },
        });
        try {
          return await fn(args, signal, call);
        } finally {
          end();
        }
      };
    });
    return calls;
  }

  /** Closes every connection and answers every open question as cancelled. */
  async dispose(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    for (const [id, extras] of this.#extras) this.#dropExtras(id, extras);
    this.serverRequests.cancelAll();
    await this.manager.dispose();
  }

  /** The skills the catalog was built with (the store keeps the same array while they do not change). */
  #catalogSkills: readonly Skill[] | undefined;

  #compute(previous: ServersView | undefined): ServersView {
    const servers = this.registry.snapshot();
    const skills = this.#skills?.() ?? NO_SKILLS;
    const statuses = this.manager.snapshot();
    const list: ConnectedServer[] = [];
    for (const config of servers) {
      const status = statuses[config.id];
      // Servers with resources get `$readResource` too (lib/mcp/resource-reader.ts).
      if (config.enabled && status?.state === "connected") {
        let tools = this.#toolsSeen.get(status.tools);
        if (!tools) this.#toolsSeen.set(status.tools, (tools = withResourceReader(status.tools, status.capabilities, status.resources)));
        list.push({ config, tools });
      }
    }
    if (previous && sameConnected(previous.connected, list) && this.#catalogSkills === skills)
      return { servers, statuses, connected: previous.connected, catalog: previous.catalog };
    this.#catalogSkills = skills;
    const skillServer = skillsServer(skills);
    // The catalog is what the model and programs see: no tool only an MCP App may call; the trusted skills under `skills`.
    return {
      servers,
      statuses,
      connected: list,
      catalog: createToolCatalog(
        [...list.map((s) => ({ name: s.config.name, tools: modelTools(s.tools) })), ...(skillServer ? [skillServer] : [])],
        // The page shows apps, so its typed API marks the tools that have one.
        { markApps: true },
      ),
    };
  }
}
