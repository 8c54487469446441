"use client";

import { useState, type ReactNode } from "react";
import type { InspectorStep } from "@/lib/model/types";
import { formatCount, formatJson, formatMs } from "./format";
import styles from "./RequestInspector.module.css";

/** A collapsible section whose body is only rendered once opened (system prompts can be large). */
function Lazy({ title, children, className }: { title: ReactNode; children: () => ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className={className} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{title}</summary>
      {open ? children() : null}
    </details>
  );
}

function Block({ label, text }: { label: string; text: string }) {
  return (
    <Lazy title={label} className={styles.block}>
      {() => <pre>{text}</pre>}
    </Lazy>
  );
}

function StepView({ step, index }: { step: InspectorStep; index: number }) {
  const usage = step.usage;
  const title = (
    <>
      <b>Step {index + 1}</b> · {step.provider} / {step.modelId} · {formatMs(step.latencyMs)}
      {step.firstChunkMs !== undefined ? ` (first chunk ${formatMs(step.firstChunkMs)})` : ""} · {formatCount(usage?.inputTokens)} in /{" "}
      {formatCount(usage?.outputTokens)} out
      {step.response.error ? <span className={styles.failed}> · failed</span> : null}
    </>
  );
  return (
    <Lazy title={title} className={styles.step}>
      {() => (
        <div className={styles.stepBody}>
          <p className={styles.meta}>
            Started {new Date(step.startedAt).toLocaleTimeString()} · finish reason {step.response.finishReason ?? "—"} · settings{" "}
            {JSON.stringify(step.request.settings)}
          </p>
          {step.request.form ? (
            <p className={styles.meta} data-testid="inspector-form">
              Tools given as: {step.request.form.mode === "search" ? "tool search (search_tools)" : "every declaration"}
              {step.request.form.why ? ` · ${step.request.form.why}` : ""}
            </p>
          ) : null}
          <Block label={`System prompt (${formatCount(step.request.system.length)} characters)`} text={step.request.system} />
          <Block label={`Tools (${step.request.tools.length})`} text={formatJson(step.request.tools)} />
          <Block label={`Messages (${step.request.messages.length})`} text={formatJson(step.request.messages, 200_000)} />
          {step.request.body !== undefined ? <Block label="HTTP body sent to the provider" text={formatJson(step.request.body, 200_000)} /> : null}
          <Block
            label={`Response${step.response.toolCalls.length > 0 ? ` (${step.response.toolCalls.length} tool call${step.response.toolCalls.length === 1 ? "" : "s"})` : ""}`}
            text={formatJson({ text: step.response.text, toolCalls: step.response.toolCalls.map((c) => ({ ...c, input: tryParse(c.input) })) }, 200_000)}
          />
          {step.response.error ? <p className={styles.error}>{step.response.error}</p> : null}
          {usage ? (
            <p className={styles.meta}>Usage reported by the provider: {formatJson(usage)}</p>
          ) : (
            <p className={styles.meta}>The provider reported no usage.</p>
          )}
        </div>
      )}
    </Lazy>
  );
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The model calls behind one assistant message: exact request, response, usage and latency per step. */
export function RequestInspector({ steps }: { steps: readonly InspectorStep[] }) {
  if (steps.length === 0) return null;
  const input = steps.reduce((n, s) => n + (s.usage?.inputTokens ?? 0), 0);
  const output = steps.reduce((n, s) => n + (s.usage?.outputTokens ?? 0), 0);
  const latency = steps.reduce((n, s) => n + s.latencyMs, 0);
  return (
    <Lazy
      className={styles.inspector}
      title={
        <>
          Inspect {steps.length} model {steps.length === 1 ? "call" : "calls"} · {formatCount(input)} in / {formatCount(output)} out tokens ·{" "}
          {formatMs(latency)}
        </>
      }
    >
      {() => steps.map((step, i) => <StepView key={step.id} step={step} index={i} />)}
    </Lazy>
  );
}
