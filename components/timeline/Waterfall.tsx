"use client";

import { useEffect, useRef, type CSSProperties, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { formatDuration } from "@/lib/timeline/format";
import { rangeTicks, rowsTimeRange, type WaterfallModel, type WaterfallRow } from "@/lib/timeline/waterfall";
import { WaterfallRowView } from "./WaterfallRow";
import styles from "./Timeline.module.css";

const ROW_HEIGHT = 24;
const PROMPT_HEIGHT = 58;

/** What the waterfall shows and reports. */
export interface WaterfallProps {
  model: WaterfallModel;
  selected: number | undefined;
  onSelect: (callId: number) => void;
  /** Open prompts by callId; a call with one gets its approve / deny prompt on its row. */
  approvals: ReadonlyMap<number, PendingApproval>;
  onDecide?: (callId: number, decision: ApprovalDecision) => void;
  /** Fit the time axis to the rows in view, so a long run's short calls get readable bars. */
  zoom?: boolean;
  /** Said in place of rows when there are none. */
  emptyText?: string;
}

/**
 * One row per call on a shared time axis, virtualised: only the rows in view are in the DOM,
 * so 10 000 calls scroll like 20. Arrow keys move the selection between calls.
 */
export function Waterfall({ model, selected, onSelect, approvals, onDecide, zoom = false, emptyText }: WaterfallProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { rows } = model;
  const heightOf = (row: WaterfallRow | undefined) =>
    row?.kind === "call" && onDecide && approvals.has(row.record.callId) ? ROW_HEIGHT + PROMPT_HEIGHT : ROW_HEIGHT;
  // The library is not compatible with React Compiler memoisation (it returns a mutable object); this component does not rely on it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => heightOf(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 12,
    // Rows render in the first commit (and on the server) before the scroller is measured.
    initialRect: { width: 1000, height: 600 },
  });

  // Row heights depend on open prompts; sizes are cached per index, so re-measure when prompts come and go.
  useEffect(() => {
    virtualizer.measure();
  }, [approvals, virtualizer]);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    const at = rows.findIndex((row) => row.kind === "call" && row.record.callId === selected);
    for (let i = at + step; i >= 0 && i < rows.length; i += step) {
      const row = rows[i];
      if (row?.kind !== "call") continue;
      onSelect(row.record.callId);
      virtualizer.scrollToIndex(i, { align: "auto" });
      return;
    }
  };

  const items = virtualizer.getVirtualItems();
  // Zoomed, the axis spans the rows in view (overscan included) and follows the scroll.
  const { fromMs, toMs } = zoom
    ? rowsTimeRange(
        items.flatMap((item) => rows[item.index] ?? []),
        model.spanMs,
      )
    : { fromMs: 0, toMs: model.spanMs };
  const ticks = zoom ? rangeTicks(fromMs, toMs) : model.ticks;
  const at = (ms: number) => `${((ms - fromMs) / (toMs - fromMs)) * 100}%`;
  // The axis as CSS: a bar at `--start` ms sits at (start - from) × scale of its track's width.
  const rowsStyle = { height: virtualizer.getTotalSize(), "--from": fromMs, "--scale": `calc(100% / ${toMs - fromMs})` } as CSSProperties;

  return (
    <div className={styles.waterfall}>
      <div className={styles.axis} aria-hidden="true">
        <span style={{ paddingLeft: 6 }}>call</span>
        <div className={styles.ticks}>
          {ticks.map((tick) => (
            <span key={tick} className={styles.tick} style={{ left: at(tick) }}>
              {formatDuration(tick)}
            </span>
          ))}
        </div>
        <span className={styles.duration}>took</span>
      </div>
      <div ref={scrollRef} className={styles.scroller} tabIndex={0} role="list" aria-label={`Tool calls, ${model.shown} of ${model.total}`} onKeyDown={move}>
        {rows.length === 0 && emptyText && <p className={styles.emptyRows}>{emptyText}</p>}
        <div className={styles.rows} style={rowsStyle}>
          {/* One set of gridlines behind every row's track, not a set per row. */}
          <div className={styles.grid} aria-hidden="true">
            {ticks.map((tick) => (
              <span key={tick} className={styles.gridline} style={{ left: at(tick) }} />
            ))}
          </div>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const approval = row.kind === "call" ? approvals.get(row.record.callId) : undefined;
            return (
              <WaterfallRowView
                key={item.key}
                row={row}
                top={item.start}
                height={item.size}
                selected={row.kind === "call" && row.record.callId === selected}
                onSelect={onSelect}
                {...(approval && onDecide ? { approval, onDecide } : {})}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
