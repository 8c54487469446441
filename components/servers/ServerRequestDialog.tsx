"use client";

import { useStore } from "@/components/hooks/use-store";
import { useMemo, useRef, useState, type FormEvent } from "react";
import { buildFormModel, initialValue, toArguments, ROOT_PATH, type FormValue } from "@/lib/forms";
import type { PendingElicitation, PendingSampling, PendingServerRequest, ServerRequestBroker } from "@/lib/mcp/server-requests";
import { LEGACY_FEATURE } from "@/lib/mcp/protocol-era";
import { samplingMessages, type SamplingMessage } from "@/lib/model/sampling";
import { SchemaField } from "@/components/tools/SchemaForm";
import { Modal, ModalActions } from "@/components/ui/Modal";
import { messageOf } from "@/lib/text/error-message";

const NONE: readonly PendingServerRequest[] = [];

/** Answers sampling requests with the chat's model. */
export interface Sampler {
  /** "demo model", "openai gpt-5.1"… */
  label: string;
  /** One completion of the (edited) messages; resolves with its text and the model's id. */
  complete(
    serverName: string,
    messages: readonly SamplingMessage[],
    systemPrompt: string | undefined,
    params: PendingSampling["params"],
    signal: AbortSignal,
  ): Promise<{ text: string; model: string }>;
}

/**
 * What a server asks the person in the middle of a call, one request at a time (the oldest
 * first): an elicitation form built from the requested schema, or a sampling request to review,
 * answer with the chat's model, and review again before it is sent. The run's clocks wait meanwhile.
 */
export function ServerRequestDialog({ broker, sampler }: { broker: ServerRequestBroker; sampler: Sampler }) {
  const pending = useStore(broker, undefined, { fallback: NONE });
  const first = pending[0];
  if (!first) return null;
  const more = pending.length - 1;
  // A new key per request: each form starts from its own request.
  return first.kind === "elicitation" ? (
    <ElicitationForm key={first.id} request={first} more={more} broker={broker} />
  ) : (
    <SamplingReview key={first.id} request={first} more={more} broker={broker} sampler={sampler} />
  );
}

function Origin({ callId, more }: { callId: number | undefined; more: number }) {
  return (
    <p className="muted small">
      {callId !== undefined ? `During call #${callId}; the run waits for your answer.` : "Outside any call of a run."}
      {more > 0 ? ` ${more} more waiting after this one.` : ""}
    </p>
  );
}

function ElicitationForm({ request, more, broker }: { request: PendingElicitation; more: number; broker: ServerRequestBroker }) {
  const node = useMemo(() => buildFormModel(request.requestedSchema ?? { type: "object", properties: {} }), [request.requestedSchema]);
  const [value, setValue] = useState<FormValue>(() => initialValue(node));
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const title = `${request.serverName} asks for input`;

  const accept = (event: FormEvent) => {
    event.preventDefault();
    if (request.mode === "url") {
      broker.answerElicitation(request.id, { action: "accept" });
      return;
    }
    const converted = toArguments(node, value);
    if (!converted.ok) {
      setErrors(new Map(converted.errors.map((e) => [e.path, e.message])));
      return;
    }
    const content =
      converted.args && typeof converted.args === "object" && !Array.isArray(converted.args)
        ? (converted.args as Record<string, string | number | boolean | string[]>)
        : {};
    broker.answerElicitation(request.id, { action: "accept", content });
  };

  return (
    <Modal title={title} onClose={() => broker.answerElicitation(request.id, { action: "cancel" })}>
      <form onSubmit={accept} aria-label={title}>
        {/* Text only: the server's words are never rendered as markup. */}
        <p style={{ whiteSpace: "pre-wrap" }}>{request.message}</p>
        <Origin callId={request.callId} more={more} />
        {request.mode === "url" ? (
          <p>
            The server asks you to open <code>{request.url}</code>{" "}
            <a href={request.url} target="_blank" rel="noopener noreferrer">
              Open it
            </a>
            , then accept when you are done there.
          </p>
        ) : (
          <SchemaField node={node} value={value} onChange={setValue} path={ROOT_PATH} label="Your answer" errors={errors} />
        )}
        <ModalActions>
          <button type="submit" className="primary">
            Accept
          </button>
          <button type="button" onClick={() => broker.answerElicitation(request.id, { action: "decline" })}>
            Decline
          </button>
          <button type="button" onClick={() => broker.answerElicitation(request.id, { action: "cancel" })}>
            Cancel
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}

function SamplingReview({ request, more, broker, sampler }: { request: PendingSampling; more: number; broker: ServerRequestBroker; sampler: Sampler }) {
  const { params } = request;
  const [messages, setMessages] = useState<SamplingMessage[]>(() => samplingMessages(params));
  const [phase, setPhase] = useState<
    { kind: "review" } | { kind: "asking" } | { kind: "answer"; text: string; model: string } | { kind: "failed"; error: string }
  >({ kind: "review" });
  const asking = useRef<AbortController | null>(null);
  const title = `${request.serverName} asks the model`;
  const hints = params.modelPreferences?.hints?.map((h) => h.name).filter(Boolean) ?? [];

  const ask = () => {
    const controller = new AbortController();
    asking.current = controller;
    setPhase({ kind: "asking" });
    sampler.complete(request.serverName, messages, params.systemPrompt, params, controller.signal).then(
      (answer) => setPhase({ kind: "answer", ...answer }),
      (error: unknown) => setPhase({ kind: "failed", error: messageOf(error) }),
    );
  };
  const refuse = (action: "decline" | "cancel") => {
    asking.current?.abort();
    broker.answerSampling(request.id, { action });
  };

  return (
    <Modal title={title} onClose={() => refuse("cancel")}>
      <Origin callId={request.callId} more={more} />
      <p className="muted small">
        Up to {params.maxTokens} tokens
        {params.temperature !== undefined ? ` · temperature ${params.temperature}` : ""}
        {hints.length > 0 ? ` · the server prefers ${hints.join(", ")}` : ""} · answered by the chat&apos;s model: <b>{sampler.label}</b> ·{" "}
        <span title={LEGACY_FEATURE.title}>sampling is {LEGACY_FEATURE.label}</span>
      </p>
      {params.systemPrompt ? (
        <details>
          <summary>System prompt from the server</summary>
          <pre style={{ whiteSpace: "pre-wrap" }}>{params.systemPrompt}</pre>
        </details>
      ) : null}
      {messages.map((message, index) => (
        <label className="field" key={index}>
          <span>{message.role === "user" ? "User" : "Assistant"} message (edit before it is sent)</span>
          <textarea
            rows={Math.min(8, Math.max(2, message.text.split("\n").length))}
            value={message.text}
            disabled={phase.kind !== "review" && phase.kind !== "failed"}
            onChange={(e) => setMessages((current) => current.map((m, i) => (i === index ? { ...m, text: e.target.value } : m)))}
          />
        </label>
      ))}
      {phase.kind === "failed" && (
        <div className="error-box" role="alert">
          The model failed: {phase.error}
        </div>
      )}
      {phase.kind === "answer" && (
        <label className="field">
          <span>Completion from {phase.model} (edit before it goes back to the server)</span>
          <textarea rows={6} value={phase.text} onChange={(e) => setPhase({ ...phase, text: e.target.value })} aria-label="Completion" />
        </label>
      )}
      <ModalActions>
        {phase.kind === "answer" ? (
          <button
            type="button"
            className="primary"
            onClick={() =>
              broker.answerSampling(request.id, {
                action: "accept",
                result: { role: "assistant", content: { type: "text", text: phase.text }, model: phase.model, stopReason: "endTurn" },
              })
            }
          >
            Send to the server
          </button>
        ) : (
          <button type="button" className="primary" disabled={phase.kind === "asking"} onClick={ask}>
            {phase.kind === "asking" ? "Asking the model…" : `Ask ${sampler.label}`}
          </button>
        )}
        <button type="button" onClick={() => refuse("decline")}>
          Decline
        </button>
        <button type="button" onClick={() => refuse("cancel")}>
          Cancel
        </button>
      </ModalActions>
    </Modal>
  );
}
