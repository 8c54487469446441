/**
 * Requests a server sends the client in the middle of a call, waiting for the person:
 * elicitation (`elicitation/create`, form and URL modes). The broker turns each into a pending
 * prompt for the UI and the person's answer back into the result the server gets; `CallsInFlight`
 * knows which tool call of a run each server is serving, so a prompt is shown beside that call
 * and the call's clocks pause while the person answers (as they do for approvals). Pure; the
 * state-class pattern (snapshot + subscribe).
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { HostCallInfo } from "../sandbox/types";
import { isSecureEndpoint } from "./oauth/provider";

/** What the timeline notes on a call about a request its server made. */
export interface ServerRequestNote {
  kind: "elicitation";
  message: string;
  state: "waiting" | "accept" | "decline" | "cancel";
}

/** A call a server is serving right now, as the run's host reported it. */
export interface CallInFlight {
  callId: number;
  /** Aborts when the run no longer waits for the call (stopped, timed out): its prompts close. */
  signal?: AbortSignal;
  suspendClock?: HostCallInfo["suspendClock"];
  /** Adds a note to the call's timeline row. */
  note(note: ServerRequestNote): void;
}

/** One prompt waiting for the person. */
export interface PendingElicitation {
  id: number;
  serverName: string;
  /** The call it came from, when one was in flight. */
  callId?: number;
  message: string;
  mode: "form" | "url";
  /** Form mode: the flat schema of the fields asked for. */
  requestedSchema?: unknown;
  /** URL mode: the page the person is asked to open (shown as text, opened only on a click). */
  url?: string;
}

/** The calls in flight per server name; the latest is the one a request is attributed to. */
export class CallsInFlight {
  private readonly byServer = new Map<string, CallInFlight[]>();

  /** Registers a call; returns its end. */
  begin(serverName: string, call: CallInFlight): () => void {
    const list = this.byServer.get(serverName) ?? [];
    list.push(call);
    this.byServer.set(serverName, list);
    return () => {
      const current = this.byServer.get(serverName);
      if (!current) return;
      const index = current.indexOf(call);
      if (index >= 0) current.splice(index, 1);
      if (current.length === 0) this.byServer.delete(serverName);
    };
  }

  /** The most recent call to this server still running. With several in parallel the server does not say which asked; the latest is the best guess. */
  latest(serverName: string): CallInFlight | undefined {
    const list = this.byServer.get(serverName);
    return list?.[list.length - 1];
  }
}

const NONE: readonly PendingElicitation[] = [];

/** Why an elicitation request cannot be shown, or undefined. */
export function refuseElicitation(params: ElicitRequest["params"]): string | undefined {
  if (params.mode === "url") {
    if (!isSecureEndpoint(params.url))
      return `The server asked the person to open ${params.url.slice(0, 200)}, which is not an https URL; the playground refused.`;
    return undefined;
  }
  return undefined;
}

/** Bridges the connection's elicitation handler (promises) and the UI (a pending list and answer()). */
export class ServerRequestBroker {
  private state: readonly PendingElicitation[] = NONE;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (result: ElicitResult) => void; detach: () => void }>();
  private readonly listeners = new Set<() => void>();

  snapshot(): readonly PendingElicitation[] {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Shows an elicitation to the person; resolves with their answer, or `cancel` when the server
   * or the run gives up (the signal). The call's clock is paused meanwhile and the call's row says so.
   */
  elicit(serverName: string, params: ElicitRequest["params"], signal: AbortSignal, call: CallInFlight | undefined): Promise<ElicitResult> {
    const refusal = refuseElicitation(params);
    if (refusal) return Promise.reject(new Error(refusal));
    const id = this.nextId++;
    const entry: PendingElicitation = {
      id,
      serverName,
      ...(call ? { callId: call.callId } : {}),
      message: params.message,
      mode: params.mode === "url" ? "url" : "form",
      ...(params.mode === "url" ? { url: params.url } : { requestedSchema: params.requestedSchema }),
    };
    call?.note({ kind: "elicitation", message: params.message, state: "waiting" });
    const resume = call?.suspendClock?.();
    return new Promise<ElicitResult>((resolve) => {
      // The server gave up on its request, or the run gave up on the call.
      const onAbort = () => this.answer(id, { action: "cancel" });
      const signals = call?.signal ? [signal, call.signal] : [signal];
      for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
      if (signals.some((s) => s.aborted)) queueMicrotask(onAbort);
      this.waiting.set(id, {
        resolve: (result) => {
          resume?.();
          call?.note({ kind: "elicitation", message: params.message, state: result.action });
          resolve(result);
        },
        detach: () => {
          for (const s of signals) s.removeEventListener("abort", onAbort);
        },
      });
      this.set([...this.state, entry]);
    });
  }

  /** The person's answer. */
  answer(id: number, result: ElicitResult): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    waiting.detach();
    this.set(this.state.filter((p) => p.id !== id));
    waiting.resolve(result);
  }

  /** Cancels every open prompt (the page is going away, or the run was thrown away). */
  cancelAll(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, { action: "cancel" });
  }

  private set(next: readonly PendingElicitation[]): void {
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}
