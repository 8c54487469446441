"use client";

import { useState } from "react";
import type { ToolActivity } from "@/lib/model/agent-loop";
import { describeOutput } from "@/lib/model/tool-output";
import type { CodeModeUIMessage, ExecuteCodeOutput, SearchToolsOutput } from "@/lib/model/types";
import { formatJson } from "./format";
import styles from "./ToolCallCard.module.css";
import { useWaiting, waitingLabel, WaitingPrompts } from "@/components/timeline/Waiting";
import dynamic from "next/dynamic";

// Loads when the chat first shows a finished tool call, not on the page's start (docs/mcp-apps.md, "MCP Apps").
const ChatApps = dynamic(() => import("@/components/apps/ChatApps").then((m) => m.ChatApps));

/** A tool part of an assistant message. */
export type ToolPart = Extract<CodeModeUIMessage["parts"][number], { toolCallId: string }>;

interface ToolCallCardProps {
  part: ToolPart;
  activity: ToolActivity | undefined;
  onShowRun?: (toolCallId: string) => void;
}

type Tone = "pending" | "ok" | "error" | "muted";

function nameOf(part: ToolPart): string {
  return part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
}

function statusOf(part: ToolPart, activity: ToolActivity | undefined, waitingFor: string | undefined): { label: string; tone: Tone } {
  switch (part.state) {
    case "input-streaming":
      return { label: "writing…", tone: "pending" };
    case "input-available":
      if (activity === "approval") return { label: "waiting for you: Run or Skip in the editor", tone: "pending" };
      if (activity === "running" && waitingFor) return { label: waitingFor, tone: "pending" };
      return { label: activity === "running" ? "running…" : "waiting", tone: "pending" };
    case "output-available": {
      const output = part.output as Partial<ExecuteCodeOutput> | undefined;
      if (output?.ok === true) return { label: output.editedCode === undefined ? "ok" : "ok (edited before running)", tone: "ok" };
      if (output && "skipped" in output) return { label: "skipped", tone: "muted" };
      if (output && "error" in output && output.error) return { label: `${output.error.kind} error`, tone: "error" };
      return { label: "done", tone: "ok" };
    }
    case "output-error":
      return { label: "could not run", tone: "error" };
    default:
      return { label: part.state, tone: "muted" };
  }
}

function CodeOutput({ output }: { output: ExecuteCodeOutput }) {
  if ("skipped" in output) return <p className={styles.note}>Not run: {output.message}</p>;
  return (
    <>
      {output.editedCode !== undefined && (
        <>
          <h4>Code that ran (edited)</h4>
          <pre className={styles.source}>{output.editedCode}</pre>
        </>
      )}
      {output.ok ? (
        <>
          <h4>{output.truncated ? `Value, as the model got it (cut from about ${output.truncated.tokens} tokens)` : "Value"}</h4>
          {output.truncated ? <p className={styles.note}>{output.truncated.note} The whole value is in the run&apos;s Output.</p> : null}
          <pre className={styles.value}>{formatJson(output.value)}</pre>
        </>
      ) : (
        <div className={styles.callError} role="alert">
          {describeOutput(output)}
          {output.error.stack ? <pre>{output.error.stack}</pre> : null}
        </div>
      )}
      {output.logs.length > 0 && (
        <>
          <h4>Console ({output.logs.length})</h4>
          <pre className={styles.logText}>{output.logs.join("\n")}</pre>
        </>
      )}
    </>
  );
}

/** One tool call inline in the chat: the code (or query), its status, and its value or error. */
export function ToolCallCard({ part, activity, onShowRun }: ToolCallCardProps) {
  const name = nameOf(part);
  // A running program's call waits for the person: the card says so and carries the same buttons.
  const waiting = useWaiting();
  const waitingHere = part.state === "input-available" && activity === "running" && waiting.pending.length + waiting.asks.length > 0;
  const status = statusOf(part, activity, waitingHere ? waitingLabel(waiting.pending, waiting.asks) : undefined);
  // Open while the person has something to do or see right away; otherwise collapsed.
  const [open, setOpen] = useState(activity === "approval" || status.tone === "error");
  const input = (part.input ?? {}) as { code?: unknown; query?: unknown; limit?: unknown };
  const isCode = name === "execute_code";
  return (
    <>
      <details className={styles.card} open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="tool-call">
        <summary>
          <span className={styles.name}>{name}</span>
          <span className={`${styles.status} ${styles[status.tone]}`}>{status.label}</span>
          {isCode && part.state === "output-available" && onShowRun ? (
            <button
              type="button"
              className={styles.showRun}
              onClick={(e) => {
                e.preventDefault();
                onShowRun(part.toolCallId);
              }}
            >
              Show run
            </button>
          ) : null}
        </summary>
        <div className={styles.body}>
          {isCode ? (
            // A malformed call leaves the raw argument text as its input: show that.
            <pre className={styles.source}>{typeof input.code === "string" ? input.code : typeof part.input === "string" ? part.input : ""}</pre>
          ) : part.input === undefined ? null : (
            <p className={styles.note}>
              {typeof input.query === "string" ? `Query: ${input.query}` : formatJson(part.input)}
              {typeof input.limit === "number" ? ` (limit ${input.limit})` : ""}
            </p>
          )}
          {part.state === "output-available" &&
            (isCode ? (
              <CodeOutput output={part.output as ExecuteCodeOutput} />
            ) : (
              <pre className={styles.value}>{(part.output as Partial<SearchToolsOutput>).declarations ?? formatJson(part.output)}</pre>
            ))}
          {part.state === "output-error" && (
            <div className={styles.callError} role="alert">
              {part.errorText}
            </div>
          )}
        </div>
      </details>
      {waitingHere ? <WaitingPrompts /> : null}
      {part.state === "output-available" || part.state === "output-error" ? (
        <ChatApps
          toolCallId={part.toolCallId}
          toolName={name}
          input={part.input}
          {...(part.state === "output-available" ? { output: part.output } : { errorText: part.errorText })}
        />
      ) : null}
    </>
  );
}
