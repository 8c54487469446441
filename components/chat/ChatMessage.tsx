"use client";

import { isToolUIPart } from "@/lib/model/ui-parts";
import { useState } from "react";
import type { ToolActivity } from "@/lib/model/agent-loop";
import { stopNotice, type LoopDecision } from "@/lib/model/loop-policy";
import type { CodeModeUIMessage, ExecuteCodeOutput, InspectorStep } from "@/lib/model/types";
import { formatJson } from "./format";
import { Markdown } from "./Markdown";
import { RequestInspector } from "./RequestInspector";
import { ToolCallCard } from "./ToolCallCard";
import styles from "./ChatMessage.module.css";

interface ChatMessageProps {
  message: CodeModeUIMessage;
  activity: Readonly<Record<string, ToolActivity>>;
  steps: readonly InspectorStep[];
  stop: LoopDecision | undefined;
  /** Set on the last user message: it can be edited and resent. */
  onEdit?: (text: string) => void;
  onShowRun?: (toolCallId: string) => void;
}

function UserMessage({ message, onEdit }: Pick<ChatMessageProps, "message" | "onEdit">) {
  // The last text part is what the person wrote; any before it is context an MCP App gave (lib/playground/app-contexts.ts).
  const texts = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
  const text = texts.at(-1) ?? "";
  const contexts = texts.slice(0, -1);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft !== null && onEdit) {
    return (
      <form
        className={styles.user}
        onSubmit={(e) => {
          e.preventDefault();
          onEdit(draft);
          setDraft(null);
        }}
      >
        <textarea className={styles.editBox} value={draft} onChange={(e) => setDraft(e.target.value)} aria-label="Edit your message" rows={3} autoFocus />
        <div className={styles.actions}>
          <button type="submit" disabled={draft.trim() === ""}>
            Resend
          </button>
          <button type="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className={styles.user}>
      {contexts.map((context, i) => (
        <p key={i} className={`${styles.userText} ${styles.appContext}`} aria-label="Context from an app">
          {context}
        </p>
      ))}
      <p className={styles.userText}>{text}</p>
      {onEdit ? (
        <button type="button" className={styles.edit} onClick={() => setDraft(text)}>
          Edit
        </button>
      ) : null}
    </div>
  );
}

/** The value(s) shown as the answer when "return directly" ended the turn. */
function DirectResult({ message, toolCallIds }: { message: CodeModeUIMessage; toolCallIds: readonly string[] }) {
  const values = message.parts.flatMap((p) =>
    isToolUIPart(p) && toolCallIds.includes(p.toolCallId) && p.state === "output-available" && (p.output as ExecuteCodeOutput).ok
      ? [(p.output as { value: unknown }).value]
      : [],
  );
  return (
    <div className={styles.direct} data-testid="direct-result">
      <h4>Result (returned directly)</h4>
      {values.map((value, i) => (
        <pre key={i}>{formatJson(value)}</pre>
      ))}
    </div>
  );
}

/** One chat message: the person's text, or the model's text, tool calls, notices and inspector. */
export function ChatMessage({ message, activity, steps, stop, onEdit, onShowRun }: ChatMessageProps) {
  if (message.role === "user") return <UserMessage message={message} {...(onEdit ? { onEdit } : {})} />;
  let step = 0;
  const notice = stop ? stopNotice(stop) : undefined;
  return (
    <div className={styles.assistant}>
      {message.parts.map((part, i) => {
        if (part.type === "step-start") {
          step++;
          return step > 1 ? <hr key={i} className={styles.step} aria-label={`Step ${step}`} /> : null;
        }
        if (part.type === "text") return part.text.trim() === "" ? null : <Markdown key={i} text={part.text} />;
        if (part.type === "reasoning") {
          return part.text.trim() === "" ? null : (
            <details key={i} className={styles.reasoning}>
              <summary>Reasoning</summary>
              <p>{part.text}</p>
            </details>
          );
        }
        if (isToolUIPart(part)) {
          return <ToolCallCard key={part.toolCallId} part={part} activity={activity[part.toolCallId]} {...(onShowRun ? { onShowRun } : {})} />;
        }
        return null;
      })}
      {stop?.kind === "returned-directly" ? <DirectResult message={message} toolCallIds={stop.toolCallIds} /> : null}
      {notice && stop?.kind === "max-steps" ? (
        <p className={styles.notice} role="status">
          {notice}
        </p>
      ) : null}
      <RequestInspector steps={steps} />
    </div>
  );
}
