/**
 * The code-mode chat as a plain state object under its hook (use-code-mode-chat.ts): it owns
 * the AI SDK Chat, answers the model's tool calls through the host (lib/model/tool-handler.ts),
 * applies the loop policy, and keeps what useChat does not (tool activity, inspector records,
 * why a loop stopped). A class rather than hook code because the Chat's callbacks outlive any
 * render and need the latest options, which they read from a ref the hook keeps current.
 */
import { errorResult } from "@/lib/sandbox/errors";
import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { EXECUTE_CODE_TOOL } from "@/lib/codemode/system-prompt";
import { cancelPendingToolCalls, dropFailedStep, lastUserMessage } from "@/lib/model/conversation";
import { decideNext, type LoopDecision, type LoopPolicy } from "@/lib/model/loop-policy";
import type { ChatRequestExtras } from "@/lib/model/request-schema";
import { answerToolCall, type CodeApprovalDecision, type ToolCallRequest } from "@/lib/model/tool-handler";
import type { CodeModeTools, CodeModeUIMessage, InspectorStep } from "@/lib/model/types";
import type { RunResult } from "@/lib/sandbox/types";

/** What the page gives the chat: the sandbox, the tool search and a person for step mode. */
export interface CodeModeChatHost {
  /** Runs the model's program against the connected servers. */
  runCode: (code: string, toolCallId: string) => Promise<RunResult>;
  /** Declarations of the best matches (search mode). */
  searchTools: (query: string, limit: number) => string;
  /** Step mode: resolves when the person runs (maybe edited) code or skips it. */
  awaitApproval: (code: string, toolCallId: string) => Promise<CodeApprovalDecision>;
  /** Called on Stop and Clear: cancel the sandbox run and any approval still waiting. */
  stopRun?: () => void;
}

/** The controller's inputs, read at the moment they are needed. */
export interface ChatControllerOptions {
  host: CodeModeChatHost;
  /** Body fields of the next request (model, key, system prompt, mode, settings). */
  requestExtras: () => ChatRequestExtras;
  policy: LoopPolicy;
  stepMode: boolean;
}

/** What a tool call is waiting for. */
export type ToolActivity = "approval" | "running";

/** The controller's own state (messages and status live in the Chat). */
export interface ChatControllerState {
  activity: Readonly<Record<string, ToolActivity>>;
  inspector: Readonly<Record<string, readonly InspectorStep[]>>;
  stops: Readonly<Record<string, LoopDecision>>;
}

const EMPTY: ChatControllerState = { activity: {}, inspector: {}, stops: {} };
const STOPPED_RUN: RunResult = errorResult({ kind: "cancelled", message: "Stopped by the person." });

/** Owns one conversation; see the file comment. */
export class CodeModeChatController {
  readonly chat: Chat<CodeModeUIMessage>;
  private state: ChatControllerState = EMPTY;
  private readonly listeners = new Set<() => void>();
  // Bumped by Stop and Clear: answers to tool calls started earlier are dropped.
  private generation = 0;
  // Set by Stop: the loop does not go on by itself until the person sends or retries.
  private halted = false;

  /**
   * `options` is a ref the hook keeps current. `transport` lets tests send requests to the route
   * handler in-process; the browser uses this app's own /api/chat (same origin: the key goes nowhere else).
   */
  constructor(
    private readonly options: { readonly current: ChatControllerOptions },
    transport: { api?: string; fetch?: typeof fetch } = {},
  ) {
    this.chat = new Chat<CodeModeUIMessage>({
      transport: new DefaultChatTransport<CodeModeUIMessage>({
        api: transport.api ?? "/api/chat",
        body: () => this.options.current.requestExtras(),
        ...(transport.fetch ? { fetch: transport.fetch } : {}),
      }),
      // Not awaited: the stream keeps flowing while the code runs (useChat's own advice).
      onToolCall: ({ toolCall }) => void this.answer({ toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input }),
      onData: (part) => {
        if (part.type !== "data-inspector") return;
        const step = part.data;
        this.update((s) => ({ ...s, inspector: { ...s.inspector, [step.messageId]: [...(s.inspector[step.messageId] ?? []), step] } }));
      },
      sendAutomaticallyWhen: ({ messages }) => this.shouldContinue(messages),
    });
  }

  /** Subscribe to state changes (useSyncExternalStore). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current state (a new object after every change). */
  getSnapshot = (): ChatControllerState => this.state;

  /** Sends a message; a run in progress is stopped first. */
  send(text: string): Promise<void> {
    if (text.trim() === "") return Promise.resolve();
    return this.restart(() => this.chat.sendMessage({ text }));
  }

  /** Stops the stream and the code, and closes unanswered tool calls. */
  async stop(): Promise<void> {
    this.generation++;
    this.halted = true;
    // Only when the chat has a run going: the editor's own runs are not the chat's to stop.
    if (Object.keys(this.state.activity).length > 0) this.options.current.host.stopRun?.();
    this.update((s) => ({ ...s, activity: {} }));
    await this.chat.stop();
    this.chat.messages = cancelPendingToolCalls(this.chat.messages);
  }

  /** Resends after an error, keeping every completed step. */
  retry(): Promise<void> {
    return this.restart(() => {
      this.chat.messages = dropFailedStep(this.chat.messages);
      return this.chat.sendMessage();
    });
  }

  /** Replaces the last user message and asks again. */
  editLast(text: string): Promise<void> {
    const last = lastUserMessage(this.chat.messages);
    if (!last || text.trim() === "") return Promise.resolve();
    return this.restart(() => this.chat.sendMessage({ text, messageId: last.message.id }));
  }

  /**
   * Replaces the conversation with one from a shared link. Nothing is sent and nothing runs:
   * setting messages starts no request, and unanswered tool calls are closed as cancelled.
   */
  async restore(messages: CodeModeUIMessage[]): Promise<void> {
    await this.stop();
    this.chat.messages = cancelPendingToolCalls(messages);
    this.chat.clearError();
    this.update(() => EMPTY);
  }

  /** Empties the conversation. */
  async clear(): Promise<void> {
    await this.stop();
    this.chat.messages = [];
    this.chat.clearError();
    this.update(() => EMPTY);
  }

  private async restart(request: () => Promise<void>): Promise<void> {
    await this.stop();
    this.halted = false;
    this.chat.clearError();
    await request();
  }

  private shouldContinue(messages: CodeModeUIMessage[]): boolean {
    if (this.halted) return false;
    const decision = decideNext(messages, this.options.current.policy);
    const last = messages.at(-1);
    if (last && (decision.kind === "max-steps" || decision.kind === "returned-directly")) {
      this.update((s) => ({ ...s, stops: { ...s.stops, [last.id]: decision } }));
    }
    return decision.kind === "continue";
  }

  private setActivity(toolCallId: string, activity: ToolActivity | undefined): void {
    this.update((s) => {
      const next = { ...s.activity };
      if (activity) next[toolCallId] = activity;
      else delete next[toolCallId];
      return { ...s, activity: next };
    });
  }

  private async answer(call: ToolCallRequest): Promise<void> {
    const generation = this.generation;
    const live = () => generation === this.generation;
    const { host, stepMode } = this.options.current;
    this.setActivity(call.toolCallId, stepMode && call.toolName === EXECUTE_CODE_TOOL ? "approval" : "running");
    const result = await answerToolCall(
      call,
      {
        runCode: (code, id) => {
          // Approved after the person pressed Stop: do not run it.
          if (!live()) return Promise.resolve(STOPPED_RUN);
          this.setActivity(id, "running");
          return host.runCode(code, id);
        },
        searchTools: (query, limit) => host.searchTools(query, limit),
        awaitApproval: (code, id) => host.awaitApproval(code, id),
      },
      { stepMode },
    );
    if (!live()) return;
    this.setActivity(call.toolCallId, undefined);
    // An unknown tool name still gets its error answer; the SDK uses the name only for typing.
    const tool = call.toolName as keyof CodeModeTools;
    if (result.state === "output-available") await this.chat.addToolOutput({ tool, toolCallId: call.toolCallId, output: result.output });
    else await this.chat.addToolOutput({ tool, toolCallId: call.toolCallId, state: "output-error", errorText: result.errorText });
  }

  private update(change: (state: ChatControllerState) => ChatControllerState): void {
    this.state = change(this.state);
    for (const listener of this.listeners) listener();
  }
}
