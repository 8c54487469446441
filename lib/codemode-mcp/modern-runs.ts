/**
 * The programs a 2026-07-28 client runs across requests, for one code-mode service
 * (docs/benchmarks.md, "The code-mode MCP server"): runs paused for an approval
 * (approval-rounds.ts, their `requestState` sealed here), long programs as tasks
 * (program-tasks.ts), and, when several instances answer behind one proxy, the way a request
 * reaches the instance its program runs on (cluster.ts).
 *
 * - The `requestState` codec's key is the instances' shared secret (`stateKey`), so any of them
 *   can open a state another sealed; the state names the instance whose program waits (`at`).
 * - An answer that lands on another instance is handed to that one, which answers the question,
 *   waits for the program's next step and sends it back.
 * - Every change of a task is written to the shared record (coalesced: one write in flight per
 *   task, the newest state after it); `tasks/get` anywhere reads it, `tasks/update` and
 *   `tasks/cancel` go to the owner, which answers only once its record says what it did.
 * - A task or a paused run whose instance stopped ends as failed, with words saying so.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import type { RequestStateCodec, ServerContext } from "@modelcontextprotocol/server";
import { ApprovalRounds, type Question, type RunStep } from "./approval-rounds";
import { InstanceGoneError } from "./cluster";
import type { Cluster, ClusterMessage } from "./cluster";
import { ProgramTasks, UnknownTaskError } from "./program-tasks";
import type { ProgramTaskStatus, WireTask } from "./program-tasks";
import type { AskClient, ExecuteOutcome } from "./service";
import { messageOf } from "../text/error-message";

/** What an approval round carries in its sealed `requestState`. */
export interface RoundState {
  /** The paused run. */
  run: string;
  /** The question it waits on. */
  n: number;
  /** The instance it runs on (absent with one instance). */
  at?: string;
}

/** Where an approval round stands after a request: ended, asking again, or gone (with why). */
export type RoundStep = { kind: "done"; outcome: ExecuteOutcome } | { kind: "ask"; question: Question; state: RoundState } | { kind: "gone"; message: string };

/** How long the record of a running task outlives its last change (its instance renews it with each change). */
const RUNNING_RECORD_MS = 24 * 60 * 60_000;
/** How long a sealed `requestState` may wait for its answer. */
export const REQUEST_STATE_TTL_SECONDS = 300;

const ALREADY_ANSWERED = "this approval was already answered, or its program is no longer waiting (it waited too long). Run the program again.";
const NOT_RUNNING = "this program is no longer running. Run it again.";

export function taskEnded(status: ProgramTaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** The client's name a 2026-07-28 request carries in its envelope. */
export function clientNameOf(ctx: ServerContext): string | undefined {
  const info = (ctx.mcpReq.envelope as Record<string, { name?: unknown } | undefined> | undefined)?.["io.modelcontextprotocol/clientInfo"];
  return typeof info?.name === "string" ? info.name : undefined;
}

export interface ModernRunsOptions {
  /** A program still running after this long becomes a task (program-tasks.ts). */
  taskAfterMs?: number;
  /** The key that seals `requestState` (32 bytes); every instance behind one proxy needs the same. Default: random per process. */
  stateKey?: Uint8Array;
  /** How long a sealed `requestState` stays valid (default REQUEST_STATE_TTL_SECONDS). */
  stateTtlSeconds?: number;
  /** The other instances, when there are any. */
  cluster?: Cluster;
  /** Where a failed write of a task's record is reported (default console.error). */
  log?: (message: string) => void;
}

export class ModernRuns {
  readonly rounds = new ApprovalRounds({ newId: randomUUID });
  readonly tasks: ProgramTasks;
  readonly codec: RequestStateCodec<RoundState>;
  private readonly cluster: Cluster | undefined;
  private readonly writes = new Map<string, { dirty: boolean; done: Promise<void> }>();

  constructor(private readonly options: ModernRunsOptions = {}) {
    this.cluster = options.cluster;
    this.tasks = new ProgramTasks({ newId: randomUUID, thresholdMs: options.taskAfterMs, onChange: (taskId) => this.mirror(taskId) });
    // Bound to the method and the client's name: a state cannot be moved to another client.
    this.codec = createRequestStateCodec<RoundState>({
      key: options.stateKey ?? randomBytes(32),
      ttlSeconds: options.stateTtlSeconds ?? REQUEST_STATE_TTL_SECONDS,
      bind: (ctx) => `${ctx.mcpReq.method}\0${clientNameOf(ctx) ?? ""}`,
    });
    this.cluster?.serve((message) => this.serve(message));
  }

  /**
   * One request of an approval round. Without `state` it starts the program; with one it gives
   * the program's question its answer (`yes`), here or on the instance the program runs on. Then
   * it waits until the program ends or asks again; `signal` (the request's) stops the program
   * when it aborts first.
   */
  async approvalStep(
    state: RoundState | undefined,
    yes: boolean,
    start: (ask: AskClient, signal: AbortSignal) => Promise<ExecuteOutcome>,
    signal: AbortSignal,
  ): Promise<RoundStep> {
    const here = this.cluster?.self;
    if (state?.at !== undefined && this.cluster && state.at !== here) return this.remoteStep(state, yes, signal);
    let run: string;
    if (state === undefined) run = this.rounds.start(start);
    else {
      if (!this.rounds.answer(state.run, state.n, yes)) return { kind: "gone", message: ALREADY_ANSWERED };
      run = state.run;
    }
    return this.asStep(await this.rounds.step(run, signal), run, here);
  }

  /** `tasks/get`: this instance's task, or the shared record of another's. */
  async taskGet(taskId: string, client: string): Promise<WireTask> {
    const record = await this.remoteRecord(taskId, client);
    if (!record) return this.tasks.get(taskId, client);
    return record.task;
  }

  /** `tasks/update`: the answer to a task's question, given where its program runs. */
  async taskUpdate(taskId: string, client: string, inputResponses: Record<string, unknown> | undefined): Promise<void> {
    const record = await this.remoteRecord(taskId, client);
    if (!record) {
      this.tasks.update(taskId, client, inputResponses);
      await this.flush(taskId);
      return;
    }
    if (taskEnded(record.task.status)) throw Object.assign(new Error(`Task ${taskId} is not waiting for input`), { code: -32602 });
    await this.cluster?.ask(record.owner, { op: "update", taskId, client, ...(inputResponses ? { inputResponses } : {}) });
  }

  /** `tasks/cancel`: stops the task's program where it runs; on a task that ended, the same ack. */
  async taskCancel(taskId: string, client: string): Promise<void> {
    const record = await this.remoteRecord(taskId, client);
    if (!record) {
      this.tasks.cancel(taskId, client);
      await this.flush(taskId);
      return;
    }
    if (!taskEnded(record.task.status)) await this.cluster?.ask(record.owner, { op: "cancel", taskId, client });
  }

  /** Stops every program here (the server is closing). */
  close(): void {
    this.rounds.close();
    this.tasks.close();
  }

  private asStep(step: RunStep | undefined, run: string, at: string | undefined): RoundStep {
    if (!step) return { kind: "gone", message: NOT_RUNNING };
    if (step.kind === "done") return step;
    return { kind: "ask", question: step.question, state: { run, n: step.n, ...(at !== undefined ? { at } : {}) } };
  }

  private async remoteStep(state: RoundState, yes: boolean, signal: AbortSignal): Promise<RoundStep> {
    const cluster = this.cluster;
    const owner = state.at;
    if (!cluster || owner === undefined) return { kind: "gone", message: NOT_RUNNING };
    try {
      const reply = (await cluster.ask(owner, { op: "step", run: state.run, n: state.n, yes }, signal)) as RunStep | { kind: "answered" } | { kind: "ended" };
      if (reply.kind === "answered") return { kind: "gone", message: ALREADY_ANSWERED };
      return this.asStep(reply.kind === "ended" ? undefined : reply, state.run, owner);
    } catch (error) {
      if (error instanceof InstanceGoneError) return { kind: "gone", message: error.message };
      if (signal.aborted) void cluster.ask(owner, { op: "stop", run: state.run }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The shared record of a task another instance runs, or undefined when the task is this
   * instance's (or there is no cluster). A running task whose instance stopped becomes failed.
   */
  private async remoteRecord(taskId: string, client: string) {
    const cluster = this.cluster;
    if (!cluster || this.tasks.has(taskId)) return undefined;
    const record = await cluster.getTask(taskId);
    if (!record || record.client !== client) throw new UnknownTaskError(taskId);
    if (record.owner === cluster.self || taskEnded(record.task.status) || (await cluster.isAlive(record.owner))) return record;
    const gone = new InstanceGoneError().message;
    const { inputRequests: _dropped, ...rest } = record.task;
    const failed: WireTask = {
      ...rest,
      status: "failed",
      statusMessage: gone,
      error: { code: -32603, message: gone },
      lastUpdatedAt: new Date().toISOString(),
    };
    const ended = { ...record, task: failed };
    await cluster.putTask(ended, failed.ttlMs);
    return ended;
  }

  /** What another instance hands this one (cluster.ts). */
  private async serve(message: ClusterMessage): Promise<unknown> {
    switch (message.op) {
      case "step":
        if (!this.rounds.answer(message.run, message.n, message.yes)) return { kind: "answered" };
        return (await this.rounds.step(message.run)) ?? { kind: "ended" };
      case "stop":
        this.rounds.stop(message.run);
        return {};
      case "update":
        this.tasks.update(message.taskId, message.client, message.inputResponses);
        await this.flush(message.taskId);
        return {};
      case "cancel":
        this.tasks.cancel(message.taskId, message.client);
        await this.flush(message.taskId);
        return {};
    }
  }

  /** Writes task `taskId`'s record: one write in flight per task, then the newest state. */
  private mirror(taskId: string): void {
    const cluster = this.cluster;
    if (!cluster) return;
    const pending = this.writes.get(taskId);
    if (pending) {
      pending.dirty = true;
      return;
    }
    const write = { dirty: true, done: Promise.resolve() };
    this.writes.set(taskId, write);
    write.done = (async () => {
      try {
        while (write.dirty) {
          write.dirty = false;
          const now = this.tasks.snapshot(taskId);
          if (!now) break;
          const ttl = now.task.ttlMs + (taskEnded(now.task.status) ? 0 : RUNNING_RECORD_MS);
          await cluster.putTask({ owner: cluster.self, ...now }, ttl).catch((error: unknown) => {
            (this.options.log ?? console.error)(`code-mode MCP server: could not save task ${taskId}: ${messageOf(error)}`);
          });
        }
      } finally {
        this.writes.delete(taskId);
      }
    })();
  }

  /** Waits until task `taskId`'s record holds its state now. */
  async flush(taskId: string): Promise<void> {
    await this.writes.get(taskId)?.done;
  }
}
