/**
 * The tasks path's machinery (lib/mcp/tasks.ts says what it does): ext-tasks' session over a raw
 * dispatcher on the connection's own transport. In the chunk lib/mcp/sdk.ts loads when a server
 * first offers tasks, with ext-tasks itself. Touches the network.
 */
import type { CallToolResult, Client, ClientCapabilities, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  taskViewFromExecutionEvent,
  type ApplicationInputRequest,
  type ApplicationInputResult,
  type TaskExecutionEvent,
  type TaskView,
} from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue, TaskId } from "@modelcontextprotocol/ext-tasks/core";
import { ConnectionError } from "./connection-errors";
import { isParamHeader } from "./param-headers";
import { MAX_INPUT_ROUNDS, type AnswerInput, type TaskCalls, type TaskReport } from "./tasks";

/** The most status messages a report keeps (the first and the latest ones). */
const MAX_MESSAGES = 20;

export interface Parts {
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
    // A call's Mcp-Param-* headers mirror its arguments: they go with the tools/call alone.
    const headers = Object.entries(options.context?.headers ?? {}).filter(([name]) => method === "tools/call" || !isParamHeader(name));
    try {
      await transport.send(body as Parameters<StreamableHTTPClientTransport["send"]>[0], {
        ...(options.signal ? { requestSignal: options.signal } : {}),
        ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
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
export function createTaskCalls(parts: Parts): TaskCalls {
  const polls = new Map<string, number>();
  const raw = rawDispatcher(parts.transport, (taskId) => polls.set(taskId, (polls.get(taskId) ?? 0) + 1));
  const session = createTaskSessionFromClient(parts.client, {
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
        ...(options.paramHeaders && Object.keys(options.paramHeaders).length > 0 ? { headers: options.paramHeaders } : {}),
        requestTimeoutMs: options.timeoutMs,
      });
      if (execution.kind === "immediate") {
        const { outcome } = await execution.settle();
        return resultFromTaskOutcome(outcome) as CallToolResult;
      }
      const taskId = execution.handle.taskId;
      let report: TaskReport | undefined;
      const onEvent = (event: TaskExecutionEvent<unknown>) => {
        const view = taskViewFromExecutionEvent(event);
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
