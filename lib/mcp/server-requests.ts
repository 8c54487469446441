/**
 * Requests a server sends the client in the middle of a call, waiting for the person:
 * elicitation (`elicitation/create`, form and URL modes) and sampling (`sampling/createMessage`).
 * The broker turns each into a pending prompt for the UI and the person's answer back into what
 * the server gets; `CallsInFlight` knows which tool call of a run each server is serving, so a
 * prompt is shown beside that call and the call's clocks pause while the person answers (as they
 * do for approvals). Pure; a store (lib/state/store.ts) whose snapshot is the pending list.
 */
import { Store } from "../state/store";
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import type { HostCallInfo } from "../sandbox/types";
import { isSecureEndpoint } from "./oauth/provider";

/** Where a request stands: waiting, answered ("accept"), declined, or cancelled. */
export type ServerRequestState = "waiting" | "accept" | "decline" | "cancel";

/** What the timeline notes on a call about a request its server made. */
export interface ServerRequestNote {
  kind: "elicitation" | "sampling";
  message: string;
  state: ServerRequestState;
  /**
   * On a 2026-07-28 connection, the round of the call it belongs to (docs/mcp-client.md,
   * "Protocol eras"): the server answered `input_required`, the person answered, the call was sent
   * again with the answers. Absent on a 2025 session, where the server asks with requests of its own.
   */
  round?: number;
}

/**
 * A call's notes with `note` added: an answer replaces the note still waiting with its message; a
 * new request is added. With `rounds` (a 2026-07-28 connection), a request that arrives while
 * every earlier one is answered opens the next round (the SDK sends a round's input requests
 * together and the call again only once all are answered); one that arrives while another waits
 * joins its round.
 */
export function withNote(notes: readonly ServerRequestNote[], note: ServerRequestNote, options: { rounds: boolean }): ServerRequestNote[] {
  const index = notes.findIndex((n) => n.message === note.message && n.state === "waiting");
  if (index >= 0 && note.state !== "waiting") {
    const round = notes[index]?.round;
    return notes.map((n, i) => (i === index ? { ...note, ...(round === undefined ? {} : { round }) } : n));
  }
  if (!options.rounds) return [...notes, note];
  const last = notes.reduce((max, n) => Math.max(max, n.round ?? 0), 0);
  const round = last === 0 ? 1 : notes.some((n) => n.state === "waiting") ? last : last + 1;
  return [...notes, { ...note, round }];
}

/** A call a server is serving right now, as the run's host reported it. */
export interface CallInFlight {
  callId: number;
  /** Aborts when the run no longer waits for the call (stopped, timed out): its prompts close. */
  signal?: AbortSignal;
  suspendClock?: HostCallInfo["suspendClock"];
  /** Adds a note to the call's timeline row. */
  note(note: ServerRequestNote): void;
  /** Adds a server log message to the call's timeline row. */
  log?(entry: { level: string; text: string }): void;
}

interface PendingBase {
  id: number;
  serverName: string;
  /** The call it came from, when one was in flight. */
  callId?: number;
}

/** An elicitation waiting for the person. */
export interface PendingElicitation extends PendingBase {
  kind: "elicitation";
  message: string;
  mode: "form" | "url";
  /** Form mode: the flat schema of the fields asked for. */
  requestedSchema?: unknown;
  /** URL mode: the page the person is asked to open (shown as text, opened only on a click). */
  url?: string;
}

/** A sampling request waiting for the person's review. */
export interface PendingSampling extends PendingBase {
  kind: "sampling";
  params: CreateMessageRequest["params"];
}

export type PendingServerRequest = PendingElicitation | PendingSampling;

/** What the person's answer to a sampling request is: a completion to send, or a refusal. */
export type SamplingAnswer = { action: "accept"; result: CreateMessageResult } | { action: "decline" | "cancel" };

/** The largest completion a server may ask for; more is refused before the person is asked. */
export const MAX_SAMPLING_TOKENS = 32_000;

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

/** Why an elicitation request cannot be shown, or undefined. */
export function refuseElicitation(params: ElicitRequest["params"]): string | undefined {
  if (params.mode === "url" && !isSecureEndpoint(params.url))
    return `The server asked the person to open ${params.url.slice(0, 200)}, which is not an https URL; the playground refused.`;
  return undefined;
}

/** Why a sampling request cannot be shown, or undefined. */
export function refuseSampling(params: CreateMessageRequest["params"]): string | undefined {
  if (params.maxTokens > MAX_SAMPLING_TOKENS) {
    return `The server asked for a completion of up to ${params.maxTokens} tokens; the playground answers sampling requests of at most ${MAX_SAMPLING_TOKENS}. Ask for fewer.`;
  }
  return undefined;
}

/** The text a sampling request's timeline note shows: its last message. */
function samplingSummary(params: CreateMessageRequest["params"]): string {
  const last = params.messages[params.messages.length - 1];
  const content = last?.content;
  const parts = Array.isArray(content) ? content : content ? [content] : [];
  const text = parts.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

const NONE: readonly PendingServerRequest[] = [];

/** Bridges the connection's request handlers (promises) and the UI (a pending list and answers). */
export class ServerRequestBroker extends Store<readonly PendingServerRequest[]> {
  private nextId = 1;
  private readonly waiting = new Map<number, { settle: (answer: unknown) => void; cancel: () => void }>();

  constructor() {
    super(NONE);
  }

  private get state(): readonly PendingServerRequest[] {
    return this.snapshot();
  }

  /** Shows an elicitation; resolves with the person's answer, or `cancel` when the server or the run gives up. */
  elicit(serverName: string, params: ElicitRequest["params"], signal: AbortSignal, call: CallInFlight | undefined): Promise<ElicitResult> {
    const refusal = refuseElicitation(params);
    if (refusal) return Promise.reject(new Error(refusal));
    const entry = (id: number): PendingElicitation => ({
      kind: "elicitation",
      id,
      serverName,
      ...(call ? { callId: call.callId } : {}),
      message: params.message,
      mode: params.mode === "url" ? "url" : "form",
      ...(params.mode === "url" ? { url: params.url } : { requestedSchema: params.requestedSchema }),
    });
    return this.ask<ElicitResult>(entry, { kind: "elicitation", message: params.message }, signal, call, { action: "cancel" }, (result) => result.action);
  }

  /**
   * Shows a sampling request for review; resolves with the completion the person approved, and
   * rejects when they decline or the request is cancelled (the server gets an error either way).
   */
  async sample(serverName: string, params: CreateMessageRequest["params"], signal: AbortSignal, call: CallInFlight | undefined): Promise<CreateMessageResult> {
    const refusal = refuseSampling(params);
    if (refusal) throw new Error(refusal);
    const entry = (id: number): PendingSampling => ({ kind: "sampling", id, serverName, ...(call ? { callId: call.callId } : {}), params });
    const answer = await this.ask<SamplingAnswer>(
      entry,
      { kind: "sampling", message: samplingSummary(params) },
      signal,
      call,
      { action: "cancel" },
      (a) => a.action,
    );
    if (answer.action === "accept") return answer.result;
    throw new Error(answer.action === "decline" ? "The person declined this sampling request." : "The sampling request was cancelled.");
  }

  /** The person's answer to an elicitation. */
  answerElicitation(id: number, result: ElicitResult): void {
    this.settle(id, result);
  }

  /** The person's answer to a sampling request. */
  answerSampling(id: number, answer: SamplingAnswer): void {
    this.settle(id, answer);
  }

  /** Cancels every open prompt (the page is going away). */
  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.cancel();
  }

  private ask<A>(
    entry: (id: number) => PendingServerRequest,
    note: Omit<ServerRequestNote, "state">,
    signal: AbortSignal,
    call: CallInFlight | undefined,
    cancelled: A,
    stateOf: (answer: A) => Exclude<ServerRequestState, "waiting">,
  ): Promise<A> {
    const id = this.nextId++;
    call?.note({ ...note, state: "waiting" });
    const resume = call?.suspendClock?.();
    return new Promise<A>((resolve) => {
      // The server gave up on its request, or the run gave up on the call.
      const onAbort = () => this.settle(id, cancelled);
      const signals = call?.signal ? [signal, call.signal] : [signal];
      for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        settle: (answer) => {
          for (const s of signals) s.removeEventListener("abort", onAbort);
          resume?.();
          call?.note({ ...note, state: stateOf(answer as A) });
          resolve(answer as A);
        },
        cancel: onAbort,
      });
      this.set([...this.state, entry(id)]);
      if (signals.some((s) => s.aborted)) queueMicrotask(onAbort);
    });
  }

  private settle(id: number, answer: unknown): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    this.set(this.state.filter((p) => p.id !== id));
    waiting.settle(answer);
  }
}
