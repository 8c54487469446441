"use client";

import { useDeferredValue, useMemo, useState } from "react";
import type { LogEntry } from "@/lib/sandbox/types";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { findCallRecord, listCallRecords, summarise, type CallRecordsState } from "@/lib/timeline/call-records";
import { formatDuration } from "@/lib/timeline/format";
import { buildWaterfall } from "@/lib/timeline/waterfall";
import { facetsOf, type WaterfallFilter } from "@/lib/timeline/waterfall-filter";
import { CallDetails } from "./CallDetails";
import { Waterfall } from "./Waterfall";
import { INITIAL_TOOLBAR, PROBLEM_STATUSES, WaterfallToolbar, type ToolbarState } from "./WaterfallToolbar";
import styles from "./Timeline.module.css";

/** One run's calls and, optionally, its console lines, length, open approval prompts and a way to reveal code lines. */
export interface TimelineListProps {
  calls: CallRecordsState;
  logs?: readonly LogEntry[];
  /** The run's wall time once it ended; the axis is at least this long. */
  endMs?: number;
  approvals?: readonly PendingApproval[];
  onDecide?: (callId: number, decision: ApprovalDecision) => void;
  /** Reveals a line in the editor; calls show a line link once the engine reports lines. */
  onRevealLine?: (line: number) => void;
  /**
   * A run has started (or this is a recorded run): the waterfall stays mounted with no calls instead of
   * the empty state, so a new run's first calls do not rebuild the whole list (see ARCHITECTURE.md, "The live path").
   */
  started?: boolean;
}

const NO_LOGS: readonly LogEntry[] = [];
const NO_APPROVALS: readonly PendingApproval[] = [];

/** The waterfall of one run's tool calls with filters, search, summary and a details pane. */
export function TimelineList({ calls, logs = NO_LOGS, endMs, approvals = NO_APPROVALS, onDecide, onRevealLine, started = false }: TimelineListProps) {
  const [toolbar, setToolbar] = useState<ToolbarState>(INITIAL_TOOLBAR);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  // Typing stays responsive on 10 000 calls: the filter catches up with the input.
  const search = useDeferredValue(toolbar.search);
  const records = listCallRecords(calls);
  const filter = useMemo(() => toFilter({ ...toolbar, search }), [toolbar, search]);
  const model = useMemo(
    () => buildWaterfall(records, { logs, filter, groupBy: toolbar.groupBy, ...(endMs !== undefined ? { endMs } : {}) }),
    [records, logs, filter, toolbar.groupBy, endMs],
  );
  const facets = useMemo(() => facetsOf(records), [records]);
  const summary = useMemo(() => summarise(records), [records]);
  const pending = useMemo(() => new Map(approvals.map((a) => [a.callId, a])), [approvals]);

  if (records.length === 0 && !started) {
    return (
      <div className="empty-state">
        <h3>No tool calls yet</h3>
        <p>
          When code calls MCP tools (for example <code>await shipping.list_carriers()</code>), every call appears here on a time axis, with its arguments,
          result, status and duration, so you can see what ran in parallel and where it failed.
        </p>
      </div>
    );
  }
  const record = selected === undefined ? undefined : findCallRecord(calls, selected);
  return (
    <div className={styles.view}>
      <div className={styles.summary} aria-label="Timeline summary">
        <span>
          calls <b>{summary.total}</b>
        </span>
        <span>
          ok <b>{summary.ok}</b>
        </span>
        <span>
          errors <b>{summary.error}</b>
        </span>
        {summary.warning > 0 && (
          <span>
            warnings <b>{summary.warning}</b>
          </span>
        )}
        {approvals.length > 0 && (
          <span>
            waiting for you <b>{approvals.length}</b>
          </span>
        )}
        <span>
          peak parallel <b>{summary.peakParallel}</b>
        </span>
        <span>
          span <b>{formatDuration(summary.spanMs)}</b>
        </span>
        {model.shown !== model.total && (
          <span>
            shown <b>{model.shown}</b>/{model.total}
          </span>
        )}
      </div>
      <WaterfallToolbar state={toolbar} facets={facets} onChange={setToolbar} />
      <div className={styles.split}>
        <Waterfall
          model={model}
          selected={selected}
          onSelect={setSelected}
          approvals={pending}
          zoom={toolbar.zoom}
          emptyText={emptyText(records.length, endMs !== undefined)}
          {...(onDecide ? { onDecide } : {})}
        />
        {/* The approval prompt lives on the call's row, so the details pane does not repeat it. */}
        {record && <CallDetails record={record} {...(onRevealLine ? { onRevealLine } : {})} />}
      </div>
    </div>
  );
}

/** What an empty waterfall says: no calls (yet, or at all), or none that pass the filters. */
function emptyText(total: number, ended: boolean): string {
  if (total > 0) return "No calls match the filters. Clear the search or pick another server, tool or status.";
  return ended ? "This run made no tool calls." : "No tool calls yet in this run; each appears here as the code makes it.";
}

function toFilter(state: ToolbarState): WaterfallFilter {
  const statuses = state.status === "" ? undefined : state.status === "problems" ? new Set(PROBLEM_STATUSES) : new Set([state.status]);
  return {
    ...(state.server ? { servers: new Set([state.server]) } : {}),
    ...(state.tool ? { tools: new Set([state.tool]) } : {}),
    ...(statuses ? { statuses } : {}),
    ...(state.search.trim() ? { search: state.search } : {}),
  };
}
