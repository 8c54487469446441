/**
 * The tasks the page's calls started, per server (docs/mcp-client.md, "Tasks"), kept in
 * localStorage so they outlive a reload or a dropped channel. A task a program still waits on is
 * followed by its call (tasks.ts); once no call has reported on it for a while (the page was
 * reloaded, the run stopped waiting), `refresh` asks its server where it stands (`tasks/get`, by
 * its id) until it ends. The card lists them (components/servers/ServerTasks.tsx): status, the
 * server's message, the result's first line; Cancel sends `tasks/cancel`. A store
 * (lib/state/store.ts); pure apart from the storage and the connections it is given.
 */
import { Store } from "../state/store";
import type { McpConnection } from "./live-connection";
import type { TaskReport, TaskStatus } from "./tasks";
import type { TextStorage } from "../storage/key-value";

/** One task as the card shows it. */
export interface TrackedTask {
  taskId: string;
  serverId: string;
  serverName: string;
  tool: string;
  status: TaskStatus;
  message?: string;
  /** The result's first characters or the error, once it ended (when its status was asked after a reload). */
  outcome?: string;
  startedAt: number;
  /** When a call or a status request last said how it stands. */
  updatedAt: number;
}

const ENDED: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);
/** Tasks kept; the oldest ended ones go first. */
export const MAX_TRACKED_TASKS = 50;
/** A task no call has reported on for this long is asked about by `refresh`. */
export const QUIET_MS = 3_000;
const STORAGE_KEY = "code-mode-playground.tasks";

type TaskConnection = Pick<McpConnection, "taskStatus" | "cancelTask">;

function isTracked(value: unknown): value is TrackedTask {
  const t = value as Partial<TrackedTask> | null;
  return (
    typeof t?.taskId === "string" &&
    typeof t.serverId === "string" &&
    typeof t.serverName === "string" &&
    typeof t.tool === "string" &&
    typeof t.status === "string" &&
    ["working", "input_required", "completed", "failed", "cancelled"].includes(t.status) &&
    typeof t.startedAt === "number" &&
    typeof t.updatedAt === "number"
  );
}

export class ServerTasksStore extends Store<readonly TrackedTask[]> {
  readonly #refreshing = new Set<string>();

  constructor(
    private readonly storage: TextStorage,
    private readonly connectionOf: (serverId: string) => TaskConnection | undefined,
    private readonly now: () => number = () => Date.now(),
  ) {
    super(ServerTasksStore.read(storage));
  }

  private static read(storage: TextStorage): readonly TrackedTask[] {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter(isTracked).slice(-MAX_TRACKED_TASKS) : [];
    } catch {
      return [];
    }
  }

  /** A call's report on its task (host functions' `onTask`): added the first time, updated after. */
  track(serverId: string, serverName: string, tool: string, report: TaskReport): void {
    const now = this.now();
    const known = this.snapshot().find((t) => t.taskId === report.taskId && t.serverId === serverId);
    const message = report.messages[report.messages.length - 1];
    const next: TrackedTask = {
      ...(known ?? { taskId: report.taskId, serverId, serverName, tool, startedAt: now }),
      status: report.status,
      ...(message === undefined ? {} : { message }),
      updatedAt: now,
    };
    this.write(known ? this.snapshot().map((t) => (t === known ? next : t)) : [...this.snapshot(), next]);
  }

  /** Asks each quiet task that has not ended where it stands, on servers that are connected. */
  async refresh(): Promise<void> {
    const quiet = this.snapshot().filter((t) => !ENDED.has(t.status) && this.now() - t.updatedAt >= QUIET_MS && !this.#refreshing.has(t.taskId));
    await Promise.all(
      quiet.map(async (task) => {
        const connection = this.connectionOf(task.serverId);
        if (!connection?.taskStatus) return;
        this.#refreshing.add(task.taskId);
        try {
          const view = await connection.taskStatus(task.taskId);
          this.update(task.taskId, {
            status: view.status,
            ...(view.statusMessage ? { message: view.statusMessage } : {}),
            ...(view.outcome ? { outcome: view.outcome } : {}),
          });
        } catch (error) {
          // A task its server no longer knows (expired, or the server restarted) has ended for us.
          if ((error as { code?: unknown } | null)?.code === -32602)
            this.update(task.taskId, { status: "failed", outcome: "Its server no longer knows this task." });
        } finally {
          this.#refreshing.delete(task.taskId);
        }
      }),
    );
  }

  /** `tasks/cancel` for a task that has not ended. */
  async cancel(taskId: string): Promise<void> {
    const task = this.snapshot().find((t) => t.taskId === taskId);
    if (!task || ENDED.has(task.status)) return;
    const connection = this.connectionOf(task.serverId);
    if (!connection?.cancelTask) throw new Error(`${task.serverName} is not connected: the task cannot be cancelled now.`);
    await connection.cancelTask(taskId);
    this.update(taskId, { status: "cancelled", message: "Cancelled" });
  }

  /** Forgets a task (the card's Dismiss). */
  dismiss(taskId: string): void {
    this.write(this.snapshot().filter((t) => t.taskId !== taskId));
  }

  private update(taskId: string, change: Partial<TrackedTask>): void {
    this.write(this.snapshot().map((t) => (t.taskId === taskId ? { ...t, ...change, updatedAt: this.now() } : t)));
  }

  private write(tasks: readonly TrackedTask[]): void {
    const kept = [...tasks];
    while (kept.length > MAX_TRACKED_TASKS) {
      const oldestEnded = kept.findIndex((t) => ENDED.has(t.status));
      kept.splice(oldestEnded >= 0 ? oldestEnded : 0, 1);
    }
    this.set(kept);
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // A full or blocked storage: the list still shows for this page.
    }
  }
}
