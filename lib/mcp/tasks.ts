/**
 * Tool calls that may become tasks: MCP's tasks extension (`io.modelcontextprotocol/tasks`) on a
 * 2026-07-28 connection whose server offers it (docs/ARCHITECTURE.md, "Tasks"). The server may
 * answer `tools/call` with a task instead of a result; the call then polls `tasks/get` until
 * the task ends, answers the input a task asks for (`tasks/update`) through the same handlers a
 * server's questions reach, and cancels it (`tasks/cancel`) when the caller stops waiting.
 *
 * It stands on `@modelcontextprotocol/ext-tasks`, which owns the task's state machine, polling
 * cadence and wire shapes. The SDK's `Client` refuses a `tools/call` result it does not know
 * (`resultType: "task"`), so this module hands ext-tasks a raw dispatch over the connection's
 * own transport: the same headers, OAuth, proxy and channel as every other request, with the
 * answers picked out of the transport's messages by their id. Touches the network.
 */
import type { CallToolResult, Client, ClientCapabilities, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ApplicationInputRequest, ApplicationInputResult, TaskExecutionEvent, TaskView } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue, TaskId } from "@modelcontextprotocol/ext-tasks/core";
import { ConnectionError } from "./connection-errors";
import type { ConnectOptions } from "./connection";
import type { ServerConfig } from "./types";
import type { CreateMessageRequest, ElicitRequest } from "@modelcontextprotocol/client";
import type { McpTasksSdk } from "./sdk";

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

/** The most status messages a report keeps (the first and the latest ones). */
const MAX_MESSAGES = 20;
/** The most rounds of input one call or task may ask for; the SDK's own cap for a call's rounds. */
export const MAX_INPUT_ROUNDS = 10;

/** Whether a connected client may get tasks: 2026-07-28, and the server offers the extension. */
export function offersTasks(client: Pick<Client, "getProtocolEra" | "getServerCapabilities">): boolean {
  if (client.getProtocolEra() !== "modern") return false;
  const extension: unknown = client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION_ID];
  return typeof extension === "object" && extension !== null && !Array.isArray(extension);
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

interface Parts {
  client: Client;
  transport: StreamableHTTPClientTransport;
  clientInfo: { name: string; version: string };
  capabilities: ClientCapabilities;
  protocolVersion: string;
  /** Timeout of each follow-up request (`tasks/get`, `tasks/update`, `tasks/cancel`). */
  requestTimeoutMs: number;
  answer: AnswerInput;
  /** Identifies the server for ext-tasks' task references. */
  endpointId: string;
}

type Message = { id?: unknown; method?: unknown; result?: unknown; error?: unknown };

/**
 * JSON-RPC requests sent on the transport outside the Client, their answers taken from the
 * transport's incoming messages before the Client sees them (it would drop an id it never sent).
 */
function rawDispatcher(transport: StreamableHTTPClientTransport, onPoll: (taskId: string) => void) {
  const waiting = new Map<string, { resolve: (message: Message) => void; reject: (error: unknown) => void }>();
  const inner = transport.onmessage;
  transport.onmessage = (...args: Parameters<NonNullable<StreamableHTTPClientTransport["onmessage"]>>) => {
    const m = args[0] as Message;
    if (typeof m.id === "string" && m.method === undefined && waiting.has(m.id)) {
      waiting.get(m.id)?.resolve(m);
      waiting.delete(m.id);
      return;
    }
    inner?.(...args);
  };
  let next = 0;
  const dispatch = async (
    request: JsonValue,
    options: { signal?: AbortSignal; context?: { headers?: Readonly<Record<string, string>>; requestTimeoutMs?: number } } = {},
  ) => {
    const id = `task-request-${++next}`;
    const body: Record<string, JsonValue> = { ...(request as Record<string, JsonValue>), jsonrpc: "2.0", id };
    const method = typeof body.method === "string" ? body.method : "request";
    if (method === "tasks/get") {
      const taskId = (body.params as { taskId?: unknown } | undefined)?.taskId;
      if (typeof taskId === "string") onPoll(taskId);
    }
    const answered = new Promise<Message>((resolve, reject) => waiting.set(id, { resolve, reject }));
    const timeoutMs = options.context?.requestTimeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => waiting.get(id)?.reject(new ConnectionError("timeout", `${method} got no answer within ${timeoutMs / 1000} s.`)), timeoutMs);
    const onAbort = () => waiting.get(id)?.reject(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await transport.send(body as Parameters<StreamableHTTPClientTransport["send"]>[0], {
        ...(options.signal ? { requestSignal: options.signal } : {}),
        ...(options.context?.headers ? { headers: { ...options.context.headers } } : {}),
      });
      const answer = await answered;
      if (answer.error !== undefined) return { kind: "error" as const, error: answer.error as { code: number; message: string } };
      return { kind: "result" as const, result: answer.result as JsonValue };
    } finally {
      waiting.delete(id);
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  };
  const failAll = (error: unknown) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  return { dispatch, failAll };
}

const OUTCOME_CHARS = 400;

/** A task's result as a line of text (its text content, else its JSON), or its error. */
function outcomeOf(raw: Readonly<Record<string, unknown>>): { outcome?: string } {
  const error = raw.error as { message?: unknown } | undefined;
  if (error && typeof error.message === "string") return { outcome: error.message.slice(0, OUTCOME_CHARS) };
  const result = raw.result as { content?: Array<{ type?: string; text?: string }>; structuredContent?: unknown } | undefined;
  if (!result) return {};
  const text = result.content?.find((c) => c.type === "text")?.text ?? JSON.stringify(result.structuredContent ?? result);
  return { outcome: text.slice(0, OUTCOME_CHARS) };
}

function reportOf(view: TaskView, previous: TaskReport | undefined, polls: number): TaskReport {
  const messages = previous ? [...previous.messages] : [];
  const message = view.statusMessage;
  if (message !== undefined && message !== messages[messages.length - 1]) {
    messages.push(message);
    if (messages.length > MAX_MESSAGES) messages.splice(1, 1);
  }
  return { taskId: view.taskId, status: view.status, messages, polls };
}

/** Tool calls over `parts.client`'s connection that the server may turn into tasks (see the file comment). */
export function createTaskCalls(sdk: McpTasksSdk, parts: Parts): TaskCalls {
  const polls = new Map<string, number>();
  const raw = rawDispatcher(parts.transport, (taskId) => polls.set(taskId, (polls.get(taskId) ?? 0) + 1));
  const session = sdk.createTaskSessionFromClient(parts.client, {
    endpointId: parts.endpointId,
    rawDispatch: raw.dispatch,
    v2RequestFraming: {
      protocolVersion: parts.protocolVersion,
      clientInfo: parts.clientInfo,
      clientCapabilities: parts.capabilities as Record<string, JsonValue>,
    },
    maxInputRounds: MAX_INPUT_ROUNDS,
    onInputRequest: <R extends ApplicationInputRequest>(request: R, context: { signal?: AbortSignal }) =>
      parts.answer(request, context.signal ?? new AbortController().signal) as Promise<ApplicationInputResult<R>>,
  });

  return {
    async callTool(name, args, options) {
      const execution = await session.callTool(name, args as Record<string, JsonValue>, {
        ...(options.signal ? { signal: options.signal } : {}),
        requestTimeoutMs: options.timeoutMs,
      });
      if (execution.kind === "immediate") {
        const { outcome } = await execution.settle();
        return sdk.resultFromTaskOutcome(outcome) as CallToolResult;
      }
      const taskId = execution.handle.taskId;
      let report: TaskReport | undefined;
      const onEvent = (event: TaskExecutionEvent<unknown>) => {
        const view = sdk.taskViewFromExecutionEvent(event);
        if (!view) return;
        const next = reportOf(view, report, polls.get(taskId) ?? 0);
        if (report && next.status === report.status && next.messages.length === report.messages.length && next.polls === report.polls) return;
        report = next;
        options.onTask?.(next);
      };
      // Stopping the run stops the task too: ext-tasks' own signal only stops waiting for it.
      const stop = () => void execution.cancel().catch(() => undefined);
      options.signal?.addEventListener("abort", stop, { once: true });
      try {
        const { outcome } = await execution.settle({ ...(options.signal ? { signal: options.signal } : {}), onEvent });
        if (outcome.task) onEvent({ type: "task", task: outcome.task });
        else if (report && report.status !== outcome.status) options.onTask?.((report = { ...report, status: outcome.status }));
        if (outcome.status === "failed") throw new Error(`${name} ran as task ${taskId} and failed: ${outcome.error.message}`);
        if (outcome.status === "cancelled") throw new Error(`${name} ran as task ${taskId}, which was cancelled.`);
        return outcome.result as CallToolResult;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        throw error;
      } finally {
        options.signal?.removeEventListener("abort", stop);
        polls.delete(taskId);
      }
    },
    async status(taskId) {
      const view = await session.task(taskId as TaskId).snapshot();
      return { status: view.status, ...(view.statusMessage ? { statusMessage: view.statusMessage } : {}), ...outcomeOf(view.raw) };
    },
    async cancel(taskId) {
      await session.task(taskId as TaskId).cancel();
    },
    async close(error) {
      raw.failAll(error);
      await session.close().catch(() => undefined);
    },
  };
}
