/**
 * One conversation as a plain state object: it drives the agent loop (agent-loop.ts) and keeps
 * what a chat UI shows besides the messages (status, the last error, tool activity, inspector
 * records, why a loop stopped). Framework-free: the page's Playground (lib/playground) creates
 * one and its chat panel subscribes to it; tests drive it directly. Its collaborators
 * (model step, tool handlers, policy, step mode) are read from `config()` when a loop starts,
 * so they can follow the person's settings.
 */
import { Store } from "../state/store";
import { generateId } from "./ui-parts";
import { runAgentLoop, type ModelStep, type ToolActivity } from "./agent-loop";
import { cancelPendingToolCalls, dropFailedStep, lastUserMessage } from "./conversation";
import type { LoopDecision, LoopPolicy } from "./loop-policy";
import type { ToolHandlers } from "./tool-handler";
import type { CodeModeUIMessage, InspectorStep } from "./types";

/** What the session needs when a loop starts. */
export interface ChatSessionConfig {
  modelStep: ModelStep;
  handlers: ToolHandlers;
  policy: LoopPolicy;
  stepMode: boolean;
  /** Tokens a program's value may take before it reaches the model cut. */
  resultBudgetTokens?: number;
  /** Called on Stop while a tool call is in progress: cancel the sandbox run and settle any approval still waiting. */
  stopRun?: () => void;
}

/** Where the conversation is: idle, a request out, a step streaming, or failed. */
export type ChatStatus = "ready" | "submitted" | "streaming" | "error";

/** Everything a chat UI shows. A new object after every change. */
export interface ChatSessionState {
  messages: readonly CodeModeUIMessage[];
  status: ChatStatus;
  /** The last failure, as a sentence for a person. */
  error: string | undefined;
  /** Tool calls in progress, by toolCallId. */
  activity: Readonly<Record<string, ToolActivity>>;
  /** Model calls per assistant message, for the request inspector. */
  inspector: Readonly<Record<string, readonly InspectorStep[]>>;
  /** Why the loop stopped by itself (max steps, returned directly), by assistant message id. */
  stops: Readonly<Record<string, LoopDecision>>;
}

/** No messages, nothing running. */
export const EMPTY_CHAT: ChatSessionState = { messages: [], status: "ready", error: undefined, activity: {}, inspector: {}, stops: {} };

/** A request is in flight or a tool call is still being answered. */
export function chatBusy(state: ChatSessionState): boolean {
  return state.status === "submitted" || state.status === "streaming" || Object.keys(state.activity).length > 0;
}

/** One conversation; see the file comment. */
export class ChatSession extends Store<ChatSessionState> {
  private current: { aborter: AbortController; done: Promise<void> } | undefined;

  /**
   * `settle`: waited for before each turn's first model request (the page: its servers still
   * connecting), so the request is built from what has settled; Stop ends the wait.
   */
  constructor(
    private readonly config: () => ChatSessionConfig,
    private readonly settle?: (signal: AbortSignal) => Promise<void>,
    /** Context to send with the next message as a part of its own (MCP Apps' context, lib/playground/app-contexts.ts); taking it forgets it. */
    private readonly takeContext?: () => string | undefined,
  ) {
    super(EMPTY_CHAT);
  }

  private get state(): ChatSessionState {
    return this.snapshot();
  }

  /** Sends a message; a run in progress is stopped first. Resolves when the loop ends. */
  send(text: string): Promise<void> {
    if (text.trim() === "") return Promise.resolve();
    const context = this.takeContext?.();
    return this.restart((messages) => [...messages, userMessage(text, undefined, context)]);
  }

  /** Resends after an error, keeping every completed step. */
  retry(): Promise<void> {
    return this.restart((messages) => dropFailedStep(messages));
  }

  /** Replaces the last user message (and everything after it) and asks again. */
  editLast(text: string): Promise<void> {
    const last = lastUserMessage(this.state.messages);
    if (!last || text.trim() === "") return Promise.resolve();
    return this.restart((messages) => [...messages.slice(0, messages.indexOf(last.message)), userMessage(text, last.message.id)]);
  }

  /** Stops the model and the code; unanswered tool calls are closed as stopped. */
  async stop(): Promise<void> {
    const run = this.current;
    if (!run) return;
    run.aborter.abort();
    // Only while the chat's own tool calls run: the editor's runs are not the chat's to stop.
    if (Object.keys(this.state.activity).length > 0) this.config().stopRun?.();
    await run.done;
  }

  /**
   * Replaces the conversation with one from a shared link. Nothing is sent and nothing runs;
   * unanswered tool calls are closed as cancelled.
   */
  async restore(messages: readonly CodeModeUIMessage[]): Promise<void> {
    await this.stop();
    this.set({ ...EMPTY_CHAT, messages: cancelPendingToolCalls(messages) });
  }

  /** Empties the conversation. */
  async clear(): Promise<void> {
    await this.stop();
    this.set(EMPTY_CHAT);
  }

  private async restart(next: (messages: readonly CodeModeUIMessage[]) => CodeModeUIMessage[]): Promise<void> {
    await this.stop();
    const messages = next(this.state.messages);
    if (messages.length === 0) return;
    const aborter = new AbortController();
    this.update({ messages, status: "submitted", error: undefined });
    const done = this.settle
      ? this.settle(aborter.signal)
          .catch(() => undefined)
          .then(() => this.loop(messages, aborter))
      : this.loop(messages, aborter);
    this.current = { aborter, done };
    await done;
  }

  private loop(messages: CodeModeUIMessage[], aborter: AbortController): Promise<void> {
    const config = this.config();
    return runAgentLoop({
      messages,
      modelStep: config.modelStep,
      handlers: config.handlers,
      policy: config.policy,
      stepMode: config.stepMode,
      ...(config.resultBudgetTokens === undefined ? {} : { resultBudgetTokens: config.resultBudgetTokens }),
      abortSignal: aborter.signal,
      onMessages: (list) => this.update({ messages: list }),
      onStatus: (status) => this.update({ status }),
      onInspector: (step) => this.update({ inspector: { ...this.state.inspector, [step.messageId]: [...(this.state.inspector[step.messageId] ?? []), step] } }),
      onActivity: (id, activity) => {
        const next = { ...this.state.activity };
        if (activity) next[id] = activity;
        else delete next[id];
        this.update({ activity: next });
      },
      onStop: (id, decision) => this.update({ stops: { ...this.state.stops, [id]: decision } }),
    }).then((result) => {
      if (this.current?.aborter === aborter) this.current = undefined;
      this.update({
        messages: result.messages,
        status: result.stop.kind === "error" ? "error" : "ready",
        error: result.stop.kind === "error" ? result.stop.message : undefined,
        activity: {},
      });
    });
  }

  private update(patch: Partial<ChatSessionState>): void {
    this.set({ ...this.state, ...patch });
  }
}

function userMessage(text: string, id: string = generateId(), context?: string): CodeModeUIMessage {
  return {
    id,
    role: "user",
    parts:
      context === undefined
        ? [{ type: "text", text }]
        : [
            { type: "text", text: context },
            { type: "text", text },
          ],
  };
}
