/**
 * What the instances of one code-mode MCP server share when several answer behind a
 * round-robin proxy (docs/benchmarks.md, "The code-mode MCP server"): the records of
 * long programs' tasks, and messages to the instance a program runs on. A program cannot move
 * between processes, so it keeps running where it started; another instance that receives the
 * next request about it (an approval's answer, `tasks/update`, `tasks/cancel`) hands that
 * request to the program's instance and relays its answer, and reads a task's status from the
 * shared record. An instance that stopped is noticed, and what it ran ends as failed with words.
 *
 * The interface is framework-free; server/redis-cluster.ts implements it over the Redis that
 * hosted mode already uses (CMP_REDIS_URL).
 */
import type { WireTask } from "./program-tasks";

/** A task as every instance can read it. */
export interface SharedTask {
  /** The instance running its program. */
  owner: string;
  /** The client it belongs to (its name); anyone else is told it does not exist. */
  client: string;
  task: WireTask;
}

/** A request handed to the instance a program runs on. */
export type ClusterMessage =
  /** Answer question `n` of paused run `run`, then wait until it asks again or ends. */
  | { op: "step"; run: string; n: number; yes: boolean }
  /** Stop paused run `run` (the request waiting on it went away). */
  | { op: "stop"; run: string }
  | { op: "update"; taskId: string; client: string; inputResponses?: Record<string, unknown> }
  | { op: "cancel"; taskId: string; client: string };

export interface Cluster {
  /** This instance's id, random per process. */
  readonly self: string;
  /** Saves a task's record for `pxMs`. */
  putTask(record: SharedTask, pxMs: number): Promise<void>;
  getTask(taskId: string): Promise<SharedTask | undefined>;
  /** Whether `instance` still runs (it renews a presence record while it does). */
  isAlive(instance: string): Promise<boolean>;
  /**
   * Sends `message` to `instance` and waits for its answer; rejects with InstanceGoneError when
   * that instance is gone or stops before answering, with an Error (and its `code`) when the
   * instance's handler threw, and with the signal's reason when `signal` aborts first.
   */
  ask(instance: string, message: ClusterMessage, signal?: AbortSignal): Promise<unknown>;
  /** Answers the messages other instances send this one. */
  serve(handler: (message: ClusterMessage) => Promise<unknown>): void;
  close(): Promise<void>;
}

/** The instance a request was meant for is no longer running. */
export class InstanceGoneError extends Error {
  override name = "InstanceGoneError";
  constructor() {
    super("The instance of this server that ran this program stopped (it was restarted or crashed) before the program ended. Run the program again.");
  }
}

/** An error an instance's handler threw, carried back with its JSON-RPC code. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}
