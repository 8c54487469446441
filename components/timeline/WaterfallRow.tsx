"use client";

import { memo, type CSSProperties } from "react";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { formatDuration } from "@/lib/timeline/format";
import type { WaterfallRow } from "@/lib/timeline/waterfall";
import type { CallServerRequest } from "@/lib/timeline/call-records";
import { toolLabel } from "@/lib/timeline/waterfall-filter";
import { taskBadge } from "@/lib/timeline/task-text";
import { ApprovalPrompt } from "./ApprovalPrompt";
import styles from "./Timeline.module.css";
import { Badge, toneOf } from "@/components/ui/Badge";

// Lane colours: distinct hues that stay readable on the dark panel; lanes past eight repeat.
const LANE_COLORS = ["#5aa9ff", "#d2a8ff", "#56d4dd", "#ffa657", "#7ee787", "#ff7b72", "#e3b341", "#a5d6ff"];

/** The colour of a server's lane. */
export function laneColor(lane: number): string {
  return LANE_COLORS[lane % LANE_COLORS.length] ?? "#5aa9ff";
}

interface RowProps {
  row: WaterfallRow;
  /** Where the virtualiser puts the row, and its height. */
  top: number;
  height: number;
  selected: boolean;
  onSelect: (callId: number) => void;
  approval?: PendingApproval;
  onDecide?: (callId: number, decision: ApprovalDecision) => void;
}

/**
 * One waterfall row: a call (label, bar, duration, maybe an approval prompt), a console line, or a
 * lane header. Bars and markers carry their times in ms as CSS variables (`--start`, `--end`); the
 * list sets the scale (`--from`, `--scale`, see Waterfall), so while a run streams and its axis
 * grows, a row whose call has not changed is not rendered again (see sameRowProps).
 */
export const WaterfallRowView = memo(function WaterfallRowView({ row, top, height, selected, onSelect, approval, onDecide }: RowProps) {
  const style: CSSProperties = { transform: `translateY(${top}px)`, height };
  if (row.kind !== "log") Object.assign(style, { "--lane": laneColor(row.lane) });
  if (row.kind === "lane") {
    return (
      <div className={`${styles.row} ${styles.laneRow}`} style={style} role="listitem">
        <span className={styles.label}>
          <span className={styles.labelText}>{row.label}</span>
          <span className="muted">{row.count}</span>
        </span>
      </div>
    );
  }
  if (row.kind === "log") {
    const { entry } = row;
    return (
      <div className={`${styles.row} ${styles.logRow}`} style={style} role="listitem" aria-label={`console ${entry.level}`}>
        <span className={`${styles.label} ${styles[`log-${entry.level}`] ?? ""}`} title={entry.text}>
          <span className={styles.callId}>›</span>
          <span className={styles.labelText}>{entry.text}</span>
        </span>
        <div className={styles.track}>
          <span className={styles.logMarker} style={{ "--start": entry.time } as CSSProperties} />
        </div>
        <span className={styles.duration}>{formatDuration(entry.time)}</span>
      </div>
    );
  }
  const { record, status } = row;
  const label = toolLabel(record);
  const simulated = record.source === "mock" || record.source === "replay";
  const barTitle = `${label}: ${status}, ${formatDuration(record.start)} → ${record.end === undefined ? "…" : formatDuration(record.end)}`;
  // A call made inside a skill's call sits under it, marked by an arrow instead of its (internal) id.
  const nested = row.depth > 0 && record.parent !== undefined;
  const where = nested ? `inside call ${record.parent}` : `call ${record.callId}`;
  return (
    <div
      className={`${styles.row} ${selected ? styles.selected : ""} ${nested ? styles.nested : ""}`}
      style={style}
      role="listitem"
      data-testid="timeline-row"
      data-status={status}
      {...(nested ? { "data-parent": record.parent } : {})}
    >
      <button
        type="button"
        className={styles.label}
        onClick={() => onSelect(record.callId)}
        aria-pressed={selected}
        aria-label={`${label}, ${where}, ${status}${simulated ? `, ${record.source ?? ""}` : ""}`}
        title={nested ? `${label}, ${where}` : label}
      >
        <span className={styles.callId}>{nested ? "↳" : record.callId}</span>
        <span className={styles.labelText}>{label}</span>
        {simulated && <Badge>{record.source === "mock" ? "mock" : "replay"}</Badge>}
        {/* A task's badge says when it asks; its questions are not rounds of the call. */}
        {!record.task && record.serverRequests && record.serverRequests.length > 0 && (
          <Badge
            tone={record.serverRequests.some((r) => r.state === "waiting") ? "warn" : "neutral"}
            title={record.serverRequests.map((r) => r.message).join("\n")}
          >
            {record.serverRequests.some((r) => r.state === "waiting") ? "asks you" : roundsLabel(record.serverRequests)}
          </Badge>
        )}
        {record.task && (
          <Badge tone={taskBadge(record.task).tone} title={record.task.messages[record.task.messages.length - 1] ?? `task ${record.task.taskId}`}>
            {taskBadge(record.task).text}
          </Badge>
        )}
        {record.capWait && (
          <Badge
            tone={record.capWait.state === "waiting" ? "warn" : "neutral"}
            title={`The server's cap: ${record.capWait.cap} ${record.capWait.cap === 1 ? "call" : "calls"} in flight at once`}
          >
            {record.capWait.state === "waiting" ? "queued" : `queued ${record.capWait.waitedMs ?? 0} ms`}
          </Badge>
        )}
        <Badge tone={toneOf(status)}>{status}</Badge>
      </button>
      <div className={styles.track} onClick={() => onSelect(record.callId)}>
        <span
          className={`${styles.bar} ${styles[`bar-${status}`] ?? ""} ${simulated ? styles.simulated : ""}`}
          style={{ "--start": row.startMs, "--end": row.endMs } as CSSProperties}
          title={barTitle}
        />
      </div>
      <span className={styles.duration}>
        {row.open && record.progress ? (
          <progress
            className={styles.rowProgress}
            aria-label={`Progress of call ${record.callId}`}
            {...(record.progress.total !== undefined ? { value: record.progress.progress, max: record.progress.total } : {})}
            title={`${record.progress.progress}${record.progress.total !== undefined ? ` / ${record.progress.total}` : ""}${record.progress.message ? ` — ${record.progress.message}` : ""}`}
          />
        ) : row.open ? (
          "…"
        ) : (
          formatDuration(record.durationMs)
        )}
      </span>
      {approval && onDecide && <ApprovalPrompt approval={approval} onDecide={onDecide} />}
    </div>
  );
}, sameRowProps);

/** Whether a row would render the same: the model builds new row objects on every update, so they are compared by what they show. */
export function sameRowProps(a: RowProps, b: RowProps): boolean {
  return (
    sameRow(a.row, b.row) &&
    a.top === b.top &&
    a.height === b.height &&
    a.selected === b.selected &&
    a.onSelect === b.onSelect &&
    a.approval === b.approval &&
    a.onDecide === b.onDecide
  );
}

function sameRow(a: WaterfallRow, b: WaterfallRow): boolean {
  if (a === b) return true;
  if (a.key !== b.key) return false;
  if (a.kind === "call" && b.kind === "call") {
    return a.record === b.record && a.status === b.status && a.lane === b.lane && a.open === b.open && a.startMs === b.startMs && a.endMs === b.endMs;
  }
  if (a.kind === "log" && b.kind === "log") return a.entry === b.entry;
  if (a.kind === "lane" && b.kind === "lane") return a.lane === b.lane && a.label === b.label && a.count === b.count;
  return false;
}

/** "asked", or on a 2026-07-28 call the rounds it took (its questions' rounds, then the one that answered). */
function roundsLabel(requests: readonly CallServerRequest[]): string {
  const rounds = requests.reduce((max, r) => Math.max(max, r.round ?? 0), 0);
  return rounds === 0 ? "asked" : `${rounds + 1} rounds`;
}
