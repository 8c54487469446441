"use client";

import { useMemo, useState, useSyncExternalStore, type FormEvent } from "react";
import { buildFormModel, initialValue, toArguments, ROOT_PATH, type FormValue } from "@/lib/forms";
import type { PendingElicitation, ServerRequestBroker } from "@/lib/mcp/server-requests";
import { SchemaField } from "@/components/tools/SchemaForm";
import { Modal } from "@/components/ui/Modal";

const NONE: readonly PendingElicitation[] = [];

/**
 * A server asks the person for input in the middle of a call (elicitation): the oldest open
 * request as a dialog, its form built from the requested schema with the test-call form's fields.
 * Accept sends the values, Decline and Cancel (or Escape) say so; the run's clocks wait meanwhile.
 */
export function ElicitationDialog({ broker }: { broker: ServerRequestBroker }) {
  const pending = useSyncExternalStore(
    (listener) => broker.subscribe(listener),
    () => broker.snapshot(),
    () => NONE,
  );
  const first = pending[0];
  if (!first) return null;
  // A new key per request: the form starts from that request's defaults.
  return <ElicitationForm key={first.id} request={first} more={pending.length - 1} broker={broker} />;
}

function ElicitationForm({ request, more, broker }: { request: PendingElicitation; more: number; broker: ServerRequestBroker }) {
  const node = useMemo(() => buildFormModel(request.requestedSchema ?? { type: "object", properties: {} }), [request.requestedSchema]);
  const [value, setValue] = useState<FormValue>(() => initialValue(node));
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const title = `${request.serverName} asks for input`;

  const accept = (event: FormEvent) => {
    event.preventDefault();
    if (request.mode === "url") {
      broker.answer(request.id, { action: "accept" });
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
    broker.answer(request.id, { action: "accept", content });
  };

  return (
    <Modal title={title} onClose={() => broker.answer(request.id, { action: "cancel" })}>
      <form onSubmit={accept} aria-label={title}>
        {/* Text only: the server's words are never rendered as markup. */}
        <p style={{ whiteSpace: "pre-wrap" }}>{request.message}</p>
        <p className="muted small">
          {request.callId !== undefined ? `During call #${request.callId}; the run waits for your answer.` : "Outside any call of a run."}
          {more > 0 ? ` ${more} more waiting after this one.` : ""}
        </p>
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
        <div className="toolbar">
          <button type="submit" className="primary">
            Accept
          </button>
          <button type="button" onClick={() => broker.answer(request.id, { action: "decline" })}>
            Decline
          </button>
          <button type="button" onClick={() => broker.answer(request.id, { action: "cancel" })}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
