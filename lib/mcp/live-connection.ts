/**
 * An established MCP connection: the interface the rest of the app uses (`McpConnection`) and
 * its implementation over a connected SDK `Client`. It notices the connection dropping (see
 * observed-fetch.ts), fails calls in flight at once with a `disconnected` ConnectionError, and
 * tells its listeners so the manager can show it.
 */
import type { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type {
  CallToolResult,
  GetPromptResult,
  LoggingLevel,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "@modelcontextprotocol/client";
import { paramHeaders } from "./param-headers";
import { ConnectionError, displayUrl } from "./connection-errors";
import type { ObservedFetch } from "./observed-fetch";
import type { McpSdk } from "./sdk";
import type { TaskCalls, TaskReport, TaskStatusView } from "./tasks";
import { loadMcpSkills } from "./sdk";
import type { PublishedSkill, PublishedSkillFile } from "./published-skills";
import type { PublishedSkillsReader } from "./sdk-skills";
import { messageOf } from "../text/error-message";

/** Who answered the handshake. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

/** Options of one tool call. */
export interface CallToolOptions {
  /** Aborting cancels the call (the server is sent notifications/cancelled). */
  signal?: AbortSignal;
  /** Progress notifications for this call; asking for them sets a progress token. */
  onProgress?: (progress: Progress) => void;
  /** Per-call timeout; default the SDK's 60 s. For a call that becomes a task, the wait for its first answer. */
  timeoutMs?: number;
  /** Each change of the task the server turned the call into (tasks.ts); never called for a plain call. */
  onTask?: (task: TaskReport) => void;
}

/** A live connection to one MCP server. */
/** A local server's process as the bridge reports it. */
export interface LocalProcess {
  pid: number;
  sharedWith: number;
}

export interface McpConnection {
  readonly serverInfo: ServerInfo;
  readonly protocolVersion: string;
  readonly capabilities: ServerCapabilities;
  /** The server's `instructions`, if it sent any. */
  readonly instructions?: string;
  readonly transport: "streamable-http" | "sse";
  readonly via: "direct" | "proxy";
  /** The server offers tasks (2026-07-28's tasks extension), so a call may become one (tasks.ts). */
  readonly tasks?: boolean;
  /** The server publishes skills (the Skills extension, SEP-2640): published-skills.ts reads them. */
  readonly skills?: boolean;
  /** Every skill the server publishes (`skills/list`); entries that do not parse are left out and counted. */
  listPublishedSkills?(): Promise<{ skills: PublishedSkill[]; invalid: number }>;
  /** Where a task of this server stands (`tasks/get`); only when it offers tasks. */
  taskStatus?(taskId: string): Promise<TaskStatusView>;
  /** Cancels a task of this server (`tasks/cancel`); only when it offers tasks. */
  cancelTask?(taskId: string): Promise<void>;
  /** One file of a published skill (its SKILL.md by default), its size and digest checked against the listing. */
  readPublishedSkill?(skillUri: string, fileUri?: string): Promise<PublishedSkillFile>;
  /** Every tool (all pages); [] when the server has no tools capability. */
  listTools(): Promise<Tool[]>;
  /**
   * How long the server said its tool list stays valid (a 2026-07-28 cache hint, `ttlMs` on the
   * last `tools/list` answer); the SDK does not ask again before then. Undefined without a hint.
   */
  toolsTtlMs?(): number | undefined;
  listPrompts(): Promise<Prompt[]>;
  listResources(): Promise<Resource[]>;
  /** Every resource template; [] without the resources capability. */
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  /** `resources/read`. */
  readResource(uri: string): Promise<ReadResourceResult>;
  /** `resources/subscribe` (or unsubscribe); `listener` runs on each notifications/resources/updated for that URI. Returns the unsubscribe. */
  subscribeResource(uri: string, listener: () => void): Promise<() => Promise<void>>;
  /** `prompts/get` with the prompt's arguments. */
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  /** Calls a tool and returns the raw result: no output-schema check, `isError` not thrown. */
  callTool(name: string, args: Record<string, unknown> | undefined, options?: CallToolOptions): Promise<CallToolResult>;
  /** Asks the server to send log messages of `level` and above (`logging/setLevel`); rejects when it has no logging capability. */
  setLogLevel(level: LoggingLevel): Promise<void>;
  /** Tells the server the roots changed (`notifications/roots/list_changed`). */
  notifyRootsChanged(): Promise<void>;
  /** Runs `listener` on notifications/tools/list_changed; returns an unsubscribe. */
  onToolsListChanged(listener: () => void): () => void;
  /** A local (stdio) server's recent stderr; absent for remote servers. */
  stderr?: () => Promise<string>;
  /** A local (stdio) server's process: its id, and how many other pages (tabs) shared it when this one connected. */
  readonly localProcess?: LocalProcess;
  /** Runs `listener` once if the connection drops; returns an unsubscribe. */
  onLost(listener: (error: ConnectionError) => void): () => void;
  /** Ends the session (DELETE when the server gave one) and closes the transport. */
  close(): Promise<void>;
}

/** What connection.ts hands over after a successful handshake. */
export interface LiveParts {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  observer: ObservedFetch;
  protocolVersion: string;
  transportKind: "streamable-http" | "sse";
  via: "direct" | "proxy";
  url: string;
  requestTimeoutMs: number;
  /** Tool calls the server may turn into tasks, when it offers them (tasks.ts). */
  tasks?: TaskCalls;
}

const MAX_PAGES = 100;
const SKILLS_EXTENSION_ID = "io.modelcontextprotocol/skills";

const REQUEST_TIMEOUT = -32001;
const TERMINATE_TIMEOUT_MS = 1_000;

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function textOf(error: unknown): string {
  return messageOf(error);
}

/** Follows `nextCursor` until the last page; a repeated cursor (a buggy server) stops it. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await page(cursor);
    out.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return out;
}

function notify<A extends unknown[]>(listeners: Iterable<(...args: A) => void>, ...args: A): void {
  for (const listener of listeners) {
    try {
      listener(...args);
    } catch {
      // One listener's bug must not keep the others from hearing about it.
    }
  }
}

/** Wraps a connected Client as an McpConnection. */
export function createLiveConnection(sdk: McpSdk, parts: LiveParts): McpConnection {
  const { client, transport, observer, url, requestTimeoutMs } = parts;
  const { SseError, StreamableHTTPClientTransport } = sdk;
  const capabilities = client.getServerCapabilities() ?? {};
  const version = client.getServerVersion();
  const instructions = client.getInstructions();
  const toolListeners = new Set<() => void>();
  const lostListeners = new Set<(error: ConnectionError) => void>();
  const state: { lost?: ConnectionError; closed: boolean } = { closed: false };
  let toolsTtl: number | undefined;
  // The input schemas last listed, for the tasks path's Mcp-Param-* headers (Client.callTool finds its own).
  const inputSchemas = new Map<string, unknown>();
  const skillsOffered = capabilities.extensions?.[SKILLS_EXTENSION_ID] !== undefined;
  let skills: Promise<PublishedSkillsReader> | undefined;
  const skillsReader = () => (skills ??= loadMcpSkills().then(({ publishedSkillsReader }) => publishedSkillsReader(client)));

  const markLost = (cause: unknown, detail: string): ConnectionError => {
    if (state.lost) return state.lost;
    const error = new ConnectionError("disconnected", `The connection to ${displayUrl(url)} dropped (${detail}).`, { cause });
    state.lost = error;
    void parts.tasks?.close(error);
    if (state.closed) return error;
    observer.stopWatching();
    notify(lostListeners, error);
    // Closing rejects every request still waiting, which guard() turns into `error`.
    void client.close().catch(() => undefined);
    return error;
  };

  observer.watchForDrops((error) => markLost(error, textOf(error)));
  client.onclose = () => {
    if (!state.closed) markLost(undefined, "the transport closed");
  };
  // Legacy SSE reports a broken event stream only here, and its EventSource would retry forever.
  client.onerror = (error) => {
    if (error instanceof SseError && !state.closed) markLost(error, textOf(error));
  };
  client.setNotificationHandler("notifications/tools/list_changed", () => notify(toolListeners));
  const resourceListeners = new Map<string, Set<() => void>>();
  client.setNotificationHandler("notifications/resources/updated", (notification) => notify(resourceListeners.get(notification.params.uri) ?? []));

  const guard = async <T>(what: string, timeoutMs: number, run: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    if (state.lost) throw state.lost;
    if (state.closed) throw new ConnectionError("disconnected", "This connection was closed. Reconnect to continue.");
    const hadSession = transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined;
    try {
      return await run();
    } catch (error) {
      if (state.lost) throw state.lost;
      // The SDK wraps an abort reason in McpError(RequestTimeout, String(reason)); the caller's
      // own reason is what it expects back.
      if (signal?.aborted) throw signal.reason;
      // A stateful server that restarted no longer knows our session id and answers 404.
      if (hadSession && codeOf(error) === 404) throw markLost(error, "the server no longer knows this session; it may have restarted");
      if (codeOf(error) === REQUEST_TIMEOUT) {
        throw new ConnectionError("timeout", `${what} got no answer from ${displayUrl(url)} within ${timeoutMs / 1000} s.`, { cause: error });
      }
      throw error;
    }
  };
  const listOptions = { timeout: requestTimeoutMs };
  // Every page of a list the server declares the capability for; [] when it declares none.
  const listAll = <T>(
    capable: unknown,
    what: string,
    page: (params: { cursor: string } | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
  ): Promise<T[]> =>
    capable ? guard(what, requestTimeoutMs, () => allPages((cursor) => page(cursor === undefined ? undefined : { cursor }))) : Promise.resolve([]);

  return {
    serverInfo: { name: version?.name ?? "", version: version?.version ?? "", ...(version?.title ? { title: version.title } : {}) },
    protocolVersion: parts.protocolVersion,
    capabilities,
    ...(instructions ? { instructions } : {}),
    transport: parts.transportKind,
    via: parts.via,
    tasks: parts.tasks !== undefined,
    ...(parts.tasks
      ? {
          taskStatus: (taskId: string) => guard(`The status of task ${taskId}`, requestTimeoutMs, () => parts.tasks!.status(taskId)),
          cancelTask: (taskId: string) => guard(`Cancelling task ${taskId}`, requestTimeoutMs, () => parts.tasks!.cancel(taskId)),
        }
      : {}),
    skills: skillsOffered,
    async listPublishedSkills() {
      const reader = await skillsReader();
      return guard("skills/list", requestTimeoutMs, () => reader.list(listOptions));
    },
    async readPublishedSkill(skillUri, fileUri) {
      const reader = await skillsReader();
      return guard(`Reading ${fileUri ?? skillUri}`, requestTimeoutMs, () => reader.read(skillUri, fileUri, listOptions));
    },
    listTools: () =>
      listAll(capabilities.tools, "tools/list", (params) =>
        client.listTools(params, listOptions).then((r) => {
          const ttl = (r as { ttlMs?: unknown }).ttlMs;
          toolsTtl = typeof ttl === "number" && ttl > 0 ? ttl : undefined;
          for (const tool of r.tools) inputSchemas.set(tool.name, tool.inputSchema);
          return { items: r.tools, nextCursor: r.nextCursor };
        }),
      ),
    toolsTtlMs: () => toolsTtl,
    listPrompts: () =>
      listAll(capabilities.prompts, "prompts/list", (params) =>
        client.listPrompts(params, listOptions).then((r) => ({ items: r.prompts, nextCursor: r.nextCursor })),
      ),
    listResources: () =>
      listAll(capabilities.resources, "resources/list", (params) =>
        client.listResources(params, listOptions).then((r) => ({ items: r.resources, nextCursor: r.nextCursor })),
      ),
    listResourceTemplates: () =>
      listAll(capabilities.resources, "resources/templates/list", (params) =>
        client.listResourceTemplates(params, listOptions).then((r) => ({ items: r.resourceTemplates, nextCursor: r.nextCursor })),
      ),
    readResource: (uri) => guard(`Reading ${uri}`, requestTimeoutMs, () => client.readResource({ uri }, listOptions)),
    async subscribeResource(uri, listener) {
      if (!capabilities.resources?.subscribe) throw new ConnectionError("unsupported", `${displayUrl(url)} does not offer resource subscriptions.`);
      const listeners = resourceListeners.get(uri) ?? new Set<() => void>();
      const first = listeners.size === 0;
      listeners.add(listener);
      resourceListeners.set(uri, listeners);
      if (first) await guard(`Subscribing to ${uri}`, requestTimeoutMs, () => client.subscribeResource({ uri }, listOptions));
      return async () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        resourceListeners.delete(uri);
        if (!state.lost && !state.closed) await client.unsubscribeResource({ uri }, listOptions).catch(() => undefined);
      };
    },
    getPrompt: (name, args) => guard(`The prompt ${name}`, requestTimeoutMs, () => client.getPrompt({ name, arguments: args }, listOptions)),
    callTool: (name, args, options = {}) => {
      const timeoutMs = options.timeoutMs ?? 60_000;
      const tasks = parts.tasks;
      if (tasks) {
        const onTask = options.onTask;
        return guard(
          `The call to ${name}`,
          timeoutMs,
          () =>
            tasks.callTool(name, args ?? {}, {
              timeoutMs,
              paramHeaders: paramHeaders(inputSchemas.get(name), args ?? {}),
              ...(options.signal ? { signal: options.signal } : {}),
              ...(onTask ? { onTask } : {}),
            }),
          options.signal,
        );
      }
      return guard(
        `The call to ${name}`,
        timeoutMs,
        () =>
          // callTool mirrors the arguments a tool marks `x-mcp-header` into Mcp-Param-* headers on a
          // 2026-07-28 connection (SEP-2243); with ACCEPT_ALL it does not check structuredContent
          // against outputSchema, which we flag instead (lib/host-calls/mcp-tools.ts).
          client.callTool(
            { name, arguments: args ?? {} },
            {
              ...(options.signal ? { signal: options.signal } : {}),
              ...(options.onProgress ? { onprogress: options.onProgress } : {}),
              ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
            },
          ),
        options.signal,
      );
    },
    async setLogLevel(level) {
      if (!capabilities.logging)
        throw new ConnectionError("unsupported", `${displayUrl(url)} does not declare the logging capability, so it takes no log level.`);
      await guard("logging/setLevel", requestTimeoutMs, () => client.setLoggingLevel(level, listOptions));
    },
    async notifyRootsChanged() {
      if (state.lost || state.closed) return;
      await client.sendRootsListChanged().catch(() => undefined);
    },
    onToolsListChanged(listener) {
      toolListeners.add(listener);
      return () => toolListeners.delete(listener);
    },
    onLost(listener) {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      observer.stopWatching();
      await parts.tasks?.close(new ConnectionError("disconnected", "This connection was closed. Reconnect to continue."));
      if (!state.lost && transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
        // Politeness, not correctness: a server that does not answer the DELETE must not hold us up.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_TIMEOUT_MS)));
        await Promise.race([transport.terminateSession().catch(() => undefined), giveUp]);
        clearTimeout(timer);
      }
      await client.close().catch(() => undefined);
    },
  };
}
