/**
 * Tool calls that may become tasks: MCP's tasks extension (`io.modelcontextprotocol/tasks`) on a
 * 2026-07-28 connection whose server offers it (docs/mcp-client.md, "Tasks"). The server may
 * answer `tools/call` with a task instead of a result; the call then polls `tasks/get` until
 * the task ends, answers the input a task asks for (`tasks/update`) through the same handlers a
 * server's questions reach, and cancels it (`tasks/cancel`) when the caller stops waiting.
 *
 * It stands on `@modelcontextprotocol/ext-tasks`, which owns the task's state machine, polling
 * cadence and wire shapes. The SDK's `Client` refuses a `tools/call` result it does not know
 * (`resultType: "task"`), so this module hands ext-tasks a raw dispatch over the connection's
 * own transport: the same headers, OAuth, proxy and channel as every other request, with the
 * answers picked out of the transport's messages by their id (task-calls.ts, loaded with
 * ext-tasks when a server first offers tasks: not on the page's first load). This module holds
 * what the rest of the app needs without it: the types, whether a server offers tasks, and how
 * the input a task asks for is answered.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import type { ConnectionError } from "./connection-errors";
import type { ApplicationInputRequest } from "@modelcontextprotocol/ext-tasks/client";
import type { ConnectOptions } from "./connection";
import type { ServerConfig } from "./types";
import type { CreateMessageRequest, ElicitRequest } from "@modelcontextprotocol/client";
import { isRecord } from "../text/json-value";

export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/** Where a task stands. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What the timeline shows of a call the server turned into a task. */
export interface TaskReport {
  taskId: string;
  status: TaskStatus;
  /** The server's status messages in the order they came, each change once (the latest last). */
  messages: string[];
  /** How many times the task's status was asked for (`tasks/get`). */
  polls: number;
}

/** The most rounds of input one call or task may ask for; the SDK's own cap for a call's rounds. */
export const MAX_INPUT_ROUNDS = 10;

/** Whether a connected client may get tasks: 2026-07-28, and the server offers the extension. */
export function offersTasks(client: Pick<Client, "getProtocolEra" | "getServerCapabilities">): boolean {
  if (client.getProtocolEra() !== "modern") return false;
  const extension: unknown = client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION_ID];
  return isRecord(extension);
}

/** The input a server asks for, answered by the connection's handlers (server-requests.ts in the page). */
export type AnswerInput = (request: ApplicationInputRequest, signal: AbortSignal) => Promise<unknown>;

/**
 * The input a task or a call's rounds ask for, through ext-tasks (tasks.ts), answered by the
 * same handlers the SDK's Client gets: what the person sees does not depend on the path.
 */
export function answerInputWith(config: ServerConfig, options: Pick<ConnectOptions, "elicit" | "sample" | "roots">): AnswerInput {
  return async (request, signal) => {
    if (request.kind === "elicitation") {
      if (!options.elicit) return { action: "decline" };
      return options.elicit(config, request.params as ElicitRequest["params"], signal);
    }
    if (request.kind === "sampling") {
      if (!options.sample) throw new Error("This client does not answer sampling requests.");
      return options.sample(config, request.params as CreateMessageRequest["params"], signal);
    }
    return { roots: options.roots?.(config) ?? [] };
  };
}

/** One call through the tasks path. */
export interface TaskCallOptions {
  signal?: AbortSignal;
  /** For a call the server answers at once (no task): how long to wait for that answer. */
  timeoutMs: number;
  /** Each change of the task's status, from its creation to its end. */
  onTask?: (task: TaskReport) => void;
  /** The call's `Mcp-Param-*` headers (lib/mcp/param-headers.ts): on the `tools/call` only, never on its follow-ups. */
  paramHeaders?: Readonly<Record<string, string>>;
}

/** A task as its status request answers (`tasks/get`), for a task no call waits on any more (after a reload). */
export interface TaskStatusView {
  status: TaskStatus;
  statusMessage?: string;
  /** A completed task's result text, shortened; a failed one's error. */
  outcome?: string;
}

export interface TaskCalls {
  callTool(name: string, args: Record<string, unknown>, options: TaskCallOptions): Promise<CallToolResult>;
  /** Where a task stands now (`tasks/get`). */
  status(taskId: string): Promise<TaskStatusView>;
  /** Cancels a task (`tasks/cancel`). */
  cancel(taskId: string): Promise<void>;
  /** Fails every request still waiting with `error` (the connection dropped or was closed). */
  close(error: ConnectionError): Promise<void>;
}
