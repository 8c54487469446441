/**
 * Long programs as tasks (MCP's tasks extension, `io.modelcontextprotocol/tasks`): a 2026-07-28
 * client that declares the extension gets `execute_code`'s result at once when the program ends
 * within `thresholdMs`, and a task otherwise (docs/benchmarks.md, "The code-mode MCP server").
 * The program keeps running here; the client asks how it stands (`tasks/get`: its status
 * message counts its calls so far), answers the approval it waits for (`tasks/update`, when the
 * task is `input_required`), or stops it (`tasks/cancel`, which stops the sandbox run). A task's
 * result is kept for `ttlMs` after it ends, then forgotten.
 *
 * Tasks are bound to the client that started them (its name) on top of their random ids: another
 * client asking about one hears that it does not exist. Pure apart from timers and `newId`.
 */
import type { AskClient, CallSummary, ExecuteOutcome } from "./service";
import { messageOf } from "../text/error-message";

export type ProgramTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as the wire carries it (the extension's Task and DetailedTask shapes). */
export interface WireTask {
  taskId: string;
  status: ProgramTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** What a program's approval asks, as the server puts it in `inputRequests`. */
export type AskForm = (question: Parameters<AskClient>[0], n: number) => Record<string, unknown>;

interface Entry {
  task: WireTask;
  client: string;
  stop: AbortController;
  asked: number;
  waiting?: { n: number; key: string; resolve: (yes: boolean) => void };
  /** Set once the caller was answered with the task (before that the program may still answer in time). */
  becameTask: boolean;
  /** Told when the program asks while the caller still waits for the first answer. */
  onAsk?: () => void;
  expiry?: ReturnType<typeof setTimeout>;
}

/** Why a task request was refused: the extension answers an unknown id with -32602. */
export class UnknownTaskError extends Error {
  readonly code = -32602;
  constructor(taskId: string) {
    super(`Unknown task: ${taskId}`);
  }
}

export const DEFAULT_TASK_THRESHOLD_MS = 2_000;
export const DEFAULT_TASK_TTL_MS = 10 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** Tasks kept at once (running or ended within their TTL); past it a long program is not made a task. */
export const MAX_TASKS = 1_000;

export interface ProgramTaskOptions {
  thresholdMs?: number;
  ttlMs?: number;
  pollIntervalMs?: number;
  newId: () => string;
  now?: () => Date;
  /** Told whenever a task changes (its status, message, input or result), from the moment it is one. */
  onChange?: (taskId: string) => void;
}

/** "3 tool calls so far: lab.echo ×2, store.get_cart ×1" */
export function callsSoFar(calls: CallSummary): string {
  if (calls.total === 0) return "Running: no tool calls yet";
  const tools = Object.entries(calls.tools)
    .map(([name, n]) => `${name} ×${n}`)
    .join(", ");
  return `Running: ${calls.total} tool ${calls.total === 1 ? "call" : "calls"} so far (${tools})${calls.failed > 0 ? `, ${calls.failed} failed` : ""}`;
}

export class ProgramTasks {
  private readonly tasks = new Map<string, Entry>();
  private readonly thresholdMs: number;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: ProgramTaskOptions) {
    this.thresholdMs = options.thresholdMs ?? DEFAULT_TASK_THRESHOLD_MS;
    this.ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.now = options.now ?? (() => new Date());
  }

  get size(): number {
    return this.tasks.size;
  }

  /**
   * Runs a program for `client`: its result when it ends within the threshold, else a task (the
   * program goes on). `start` gets the program's `ask` (a question makes it a task at once, since
   * only a task can wait for an answer), the run's own signal and a callback for its calls so far.
   */
  async run(
    client: string,
    start: (ask: AskClient, signal: AbortSignal, onCalls: (calls: CallSummary) => void) => Promise<ExecuteOutcome>,
    toResult: (outcome: ExecuteOutcome) => Record<string, unknown>,
    form: AskForm,
    requestSignal?: AbortSignal,
  ): Promise<{ kind: "done"; result: Record<string, unknown> } | { kind: "task"; task: WireTask }> {
    const stamp = this.now().toISOString();
    const entry: Entry = {
      task: {
        taskId: this.options.newId(),
        status: "working",
        statusMessage: callsSoFar({ total: 0, failed: 0, tools: {} }),
        createdAt: stamp,
        lastUpdatedAt: stamp,
        ttlMs: this.ttlMs,
        pollIntervalMs: this.pollIntervalMs,
      },
      client,
      stop: new AbortController(),
      asked: 0,
      becameTask: false,
    };
    const ask: AskClient = (question, signal) =>
      new Promise<boolean>((resolve) => {
        const n = ++entry.asked;
        const key = `approve_${n}`;
        const settle = (yes: boolean) => {
          if (entry.waiting?.n !== n) return;
          entry.waiting = undefined;
          signal.removeEventListener("abort", denied);
          this.set(entry, { status: "working", inputRequests: undefined });
          resolve(yes);
        };
        const denied = () => settle(false);
        signal.addEventListener("abort", denied, { once: true });
        entry.waiting = { n, key, resolve: settle };
        this.set(entry, { status: "input_required", inputRequests: { [key]: form(question, n) } });
        entry.onAsk?.();
      });
    const onCalls = (calls: CallSummary) => this.set(entry, { statusMessage: callsSoFar(calls) });
    const outcome = start(ask, entry.stop.signal, onCalls).then(
      (ended) => {
        if (entry.task.status !== "cancelled")
          this.set(entry, { status: "completed", statusMessage: "Done", result: { ...toResult(ended), resultType: "complete" } });
        return ended;
      },
      (error: unknown) => {
        if (entry.task.status !== "cancelled")
          this.set(entry, {
            status: "failed",
            statusMessage: "Failed",
            error: { code: -32603, message: messageOf(error) },
          });
        throw error;
      },
    );
    // The first answer: the outcome if it comes within the threshold and before any question.
    const stopEarly = () => entry.stop.abort(requestSignal?.reason);
    requestSignal?.addEventListener("abort", stopEarly, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([
      outcome.then((ended) => ({ kind: "done" as const, ended })),
      new Promise<{ kind: "task" }>((resolve) => {
        timer = setTimeout(() => resolve({ kind: "task" }), this.thresholdMs);
        entry.onAsk = () => resolve({ kind: "task" });
        // It may have asked already, before this wait began.
        if (entry.waiting) resolve({ kind: "task" });
      }),
    ]).finally(() => {
      clearTimeout(timer);
      entry.onAsk = undefined;
      requestSignal?.removeEventListener("abort", stopEarly);
    });
    if (first.kind === "done" && entry.asked === 0) return { kind: "done", result: toResult(first.ended) };
    if (this.tasks.size >= MAX_TASKS) {
      // No room for another task: the caller waits for the program as a plain call would.
      return { kind: "done", result: toResult(await outcome) };
    }
    entry.becameTask = true;
    this.tasks.set(entry.task.taskId, entry);
    this.options.onChange?.(entry.task.taskId);
    // A task that ended is kept for its TTL; one still running is dropped only once it ends.
    void outcome.then(
      () => this.expireLater(entry),
      () => this.expireLater(entry),
    );
    if (entry.task.status === "completed" || entry.task.status === "failed") this.expireLater(entry);
    return { kind: "task", task: this.wire(entry) };
  }

  /** Whether this instance runs (or keeps the result of) task `taskId`. */
  has(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  /** A task and its client as they stand now, for the shared record (cluster.ts). */
  snapshot(taskId: string): { client: string; task: WireTask } | undefined {
    const entry = this.tasks.get(taskId);
    return entry ? { client: entry.client, task: this.wire(entry) } : undefined;
  }

  /** `tasks/get`. */
  get(taskId: string, client: string): WireTask {
    return this.wire(this.find(taskId, client));
  }

  /**
   * `tasks/update`: the answer to the question the task waits on. Only an explicit yes
   * (`accept` with `approve: true`) allows the call; anything else denies it.
   */
  update(taskId: string, client: string, inputResponses: Record<string, unknown> | undefined): void {
    const entry = this.find(taskId, client);
    const waiting = entry.waiting;
    if (!waiting) throw Object.assign(new Error(`Task ${taskId} is not waiting for input`), { code: -32602 });
    const answer = inputResponses?.[waiting.key] as { action?: unknown; content?: { approve?: unknown } } | undefined;
    if (answer === undefined) throw Object.assign(new Error(`Task ${taskId} waits for an answer to "${waiting.key}"`), { code: -32602 });
    waiting.resolve(answer.action === "accept" && answer.content?.approve === true);
  }

  /** `tasks/cancel`: stops the program's run; on a task that has ended it changes nothing (the same ack). */
  cancel(taskId: string, client: string): void {
    const entry = this.find(taskId, client);
    if (entry.task.status === "completed" || entry.task.status === "failed" || entry.task.status === "cancelled") return;
    this.set(entry, { status: "cancelled", statusMessage: "Cancelled", inputRequests: undefined });
    entry.waiting?.resolve(false);
    entry.stop.abort(new Error("The task was cancelled"));
    this.expireLater(entry);
  }

  /** Stops every program and forgets every task (the server is closing). */
  close(): void {
    for (const entry of this.tasks.values()) {
      clearTimeout(entry.expiry);
      entry.stop.abort(new Error("The server is closing"));
    }
    this.tasks.clear();
  }

  private find(taskId: string, client: string): Entry {
    const entry = this.tasks.get(taskId);
    if (!entry || entry.client !== client) throw new UnknownTaskError(taskId);
    return entry;
  }

  private set(entry: Entry, change: Partial<WireTask>): void {
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete (entry.task as unknown as Record<string, unknown>)[key];
      else (entry.task as unknown as Record<string, unknown>)[key] = value;
    }
    entry.task.lastUpdatedAt = this.now().toISOString();
    if (entry.becameTask) this.options.onChange?.(entry.task.taskId);
  }

  private expireLater(entry: Entry): void {
    clearTimeout(entry.expiry);
    entry.expiry = setTimeout(() => {
      if (this.tasks.get(entry.task.taskId) === entry) this.tasks.delete(entry.task.taskId);
    }, this.ttlMs);
    entry.expiry.unref?.();
  }

  private wire(entry: Entry): WireTask {
    return structuredClone(entry.task);
  }
}
