/**
 * The Tools view's test calls, one per server and tool, kept outside the panels: a call still
 * running when the person switches tabs (Tools → Servers → Tools) is still there, and still
 * answered, when the form shows again; so are the last arguments sent. A store
 * (lib/state/store.ts) of every entry by key; it finds a server's live connection itself, so
 * the form that calls holds none. A call its server runs as a task (lib/mcp/tasks.ts) carries
 * the task's latest report, which also goes to `onTask` (the page tracks it on the server's
 * card, so it outlives a reload).
 */
import { Store } from "../state/store";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { McpConnection } from "./live-connection";
import type { TaskReport } from "./tasks";
import { validateArguments } from "./validate";
import { messageOf } from "../text/error-message";

/** Where one test call is. */
export type TestCallState =
  | { status: "idle" }
  | { status: "calling"; startedAt: number }
  | { status: "done"; result: CallToolResult; ms: number; warning?: string }
  | { status: "failed"; message: string; ms?: number };

/** One tool's test call and the arguments it was last sent. */
export interface TestCallEntry {
  state: TestCallState;
  args?: Record<string, unknown>;
  /** The server ran the call as a task: where it stands, as last reported. */
  task?: TaskReport;
}

const IDLE: TestCallEntry = Object.freeze({ state: Object.freeze({ status: "idle" as const }) });

/** The key of a tool's test call. */
export const testCallKey = (serverId: string, toolName: string) => `${serverId}\u0000${toolName}`;

/** Every tool's test call in this page. */
export class TestCallStore extends Store<Readonly<Record<string, TestCallEntry>>> {
  private readonly aborts = new Map<string, AbortController>();

  constructor(
    /** The server's live connection, or undefined when it is not connected. */
    private readonly connectionOf: (serverId: string) => McpConnection | undefined,
    private readonly now: () => number = () => performance.now(),
    /** A call's task report, for the page's list of tasks. */
    private readonly onTask?: (serverId: string, tool: string, report: TaskReport) => void,
  ) {
    super({});
  }

  /** The test call of this key (a new object whenever it changes). */
  get(key: string): TestCallEntry {
    const entries = this.snapshot();
    return (Object.hasOwn(entries, key) ? entries[key] : undefined) ?? IDLE;
  }

  /** Calls the server's tool directly (outside the sandbox); a call already running for it is cancelled. */
  call(serverId: string, tool: Tool, args: Record<string, unknown>): void {
    const key = testCallKey(serverId, tool.name);
    const connection = this.connectionOf(serverId);
    if (!connection) return this.put(key, { state: { status: "failed", message: "The server is not connected." }, args });
    // Advisory: a person may send invalid arguments on purpose to see how the server answers.
    const check = validateArguments(tool.inputSchema, args);
    const warning = check.ok ? undefined : `Sent although it does not match the input schema: ${check.message}`;
    this.aborts.get(key)?.abort();
    const abort = new AbortController();
    this.aborts.set(key, abort);
    const started = this.now();
    this.put(key, { state: { status: "calling", startedAt: Date.now() }, args });
    const current = () => this.aborts.get(key) === abort;
    const onTask = (task: TaskReport) => {
      this.onTask?.(serverId, tool.name, task);
      if (current()) this.put(key, { ...this.get(key), task });
    };
    const taskOf = () => {
      const task = this.get(key).task;
      return task ? { task } : {};
    };
    connection.callTool(tool.name, args, { signal: abort.signal, onTask }).then(
      (result) => {
        if (current()) this.put(key, { state: { status: "done", result, ms: this.now() - started, ...(warning ? { warning } : {}) }, args, ...taskOf() });
      },
      (error: unknown) => {
        if (current()) this.put(key, { state: { status: "failed", message: messageOf(error), ms: this.now() - started }, args, ...taskOf() });
      },
    );
  }

  /** Cancels the key's running call; it ends as failed, "Cancelled by you". */
  cancel(key: string): void {
    this.aborts.get(key)?.abort(new Error("Cancelled by you"));
  }

  private put(key: string, entry: TestCallEntry): void {
    this.set({ ...this.snapshot(), [key]: entry });
  }
}
