"use client";

import type { CallRecord } from "@/lib/timeline/call-records";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { formatDuration } from "@/lib/timeline/format";
import { displayStatus, toolLabel } from "@/lib/timeline/waterfall-filter";
import { taskSummary } from "@/lib/timeline/task-text";
import { ApprovalPrompt } from "./ApprovalPrompt";
import dynamic from "next/dynamic";
import { JsonView } from "./JsonView";
import styles from "./Timeline.module.css";
import { Badge, toneOf } from "@/components/ui/Badge";

// Loads when a finished call is first shown, not on the page's start (docs/mcp-apps.md, "MCP Apps").
const CallApp = dynamic(() => import("@/components/apps/CallApp").then((m) => m.CallApp));

/** What the details pane needs besides the call. */
export interface CallDetailsProps {
  record: CallRecord;
  approval?: PendingApproval;
  onDecide?: (callId: number, decision: ApprovalDecision) => void;
  /** Jumps the editor to the line that made the call; the link shows only when the engine reported the line. */
  onRevealLine?: (line: number) => void;
}

/** The selected call: arguments, result or error, validation findings, timing, and the line of code that made it. */
export function CallDetails({ record, approval, onDecide, onRevealLine }: CallDetailsProps) {
  const status = displayStatus(record);
  return (
    <section className={styles.details} aria-label={`Call ${record.callId} details`}>
      <div className={styles.detailsHeader}>
        <strong>{toolLabel(record)}</strong>
        <Badge tone={toneOf(status)}>{status}</Badge>
        {record.source && record.source !== "live" && <Badge>{record.source === "mock" ? "mocked" : "replayed"}</Badge>}
        <span className="muted">call #{record.callId}</span>
        <span className="muted">
          at {formatDuration(record.start)}, took {formatDuration(record.durationMs)}
        </span>
        {record.resultBytes !== undefined && <span className="muted">{record.resultBytes} bytes</span>}
        {record.line !== undefined &&
          (onRevealLine ? (
            <button type="button" className="link" onClick={() => onRevealLine(record.line ?? 1)}>
              line {record.line}
            </button>
          ) : (
            <span className="muted">line {record.line}</span>
          ))}
      </div>
      {approval && onDecide && <ApprovalPrompt approval={approval} onDecide={onDecide} />}
      {record.progress && (
        <p className="muted">
          progress {record.progress.progress}
          {record.progress.total !== undefined ? ` / ${record.progress.total}` : ""}
          {record.progress.message ? ` — ${record.progress.message}` : ""}
        </p>
      )}
      {record.capWait && (
        <p className="muted" data-testid="call-cap-wait">
          {record.capWait.state === "waiting"
            ? `Waiting: ${record.server ?? record.namespace} takes ${record.capWait.cap} ${record.capWait.cap === 1 ? "call" : "calls"} at once (its setting), and that many are in flight.`
            : `Waited ${record.capWait.waitedMs ?? 0} ms for ${record.server ?? record.namespace}'s cap of ${record.capWait.cap} ${record.capWait.cap === 1 ? "call" : "calls"} in flight.`}
        </p>
      )}
      {record.task && (
        <div className="muted" data-testid="call-task">
          <p>{taskSummary(record.task, record.server ?? record.namespace)}</p>
          {record.task.messages.length > 0 && (
            <ol aria-label={`Status messages of task ${record.task.taskId}`}>
              {record.task.messages.map((message, i) => (
                <li key={i}>{message}</li>
              ))}
            </ol>
          )}
        </div>
      )}
      {record.serverRequests && record.serverRequests.length > 0 && (
        <ul className="muted" aria-label={`What ${record.server ?? record.namespace} asked during call ${record.callId}`}>
          {record.serverRequests.map((request, i) => (
            <li key={i}>
              {record.task ? <b>The task asked: </b> : request.round !== undefined && <b>Round {request.round}, input required: </b>}
              The server asked {request.kind === "sampling" ? "the model" : "for input"} ({request.kind}): &ldquo;{request.message}&rdquo; —{" "}
              {request.state === "waiting"
                ? "waiting for you"
                : request.state === "accept"
                  ? "answered"
                  : request.state === "decline"
                    ? "declined"
                    : "cancelled"}
            </li>
          ))}
        </ul>
      )}
      {record.serverLogs && record.serverLogs.length > 0 && (
        <ul className="muted small" aria-label={`What ${record.server ?? record.namespace} logged during call ${record.callId}`}>
          {record.serverLogs.map((entry, i) => (
            <li key={i}>
              <b>{entry.level}</b> {entry.text}
            </li>
          ))}
        </ul>
      )}
      <h4>Arguments</h4>
      <JsonView value={record.args ?? {}} label="Arguments" searchable copyable />
      {record.validation && <div className="error-box">Arguments rejected: {record.validation}</div>}
      {record.error && (
        <>
          <h4>Error</h4>
          <div className="error-box">{record.error}</div>
        </>
      )}
      {record.value !== undefined && (
        <>
          <h4>Result</h4>
          <JsonView value={record.value} label="Result" searchable copyable />
        </>
      )}
      {(record.value !== undefined || record.error !== undefined) && (
        <CallApp
          key={record.callId}
          server={record.server}
          tool={record.tool}
          args={record.args}
          value={record.value}
          {...(record.error !== undefined ? { error: record.error } : {})}
        />
      )}
      {record.outputFindings && record.outputFindings.length > 0 && (
        <>
          <h4>Output schema mismatches</h4>
          <ul>
            {record.outputFindings.map((finding, i) => (
              <li key={i}>
                <code>{finding.path}</code> {finding.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
