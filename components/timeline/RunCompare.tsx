"use client";

import { useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { compareRuns, recordedStatus, type ComparedCall } from "@/lib/timeline/run-diff";
import { formatDuration } from "@/lib/timeline/format";
import { callLabel, type RecordedCall, type RunRecord } from "@/lib/timeline/run-record";
import { canonicalJson as stableJson } from "@/lib/text/canonical-json";
import { clip } from "@/lib/text/display";
import { JsonView } from "./JsonView";
import styles from "./Timeline.module.css";

const ROW_HEIGHT = 24;

/** Two runs side by side: calls added, removed and changed, and whether the outcome changed. */
export function RunCompare({ a, b, onClose }: { a: RunRecord; b: RunRecord; onClose: () => void }) {
  const comparison = useMemo(() => compareRuns(a, b), [a, b]);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [onlyDifferences, setOnlyDifferences] = useState(true);
  const rows = useMemo(() => (onlyDifferences ? comparison.rows.filter((r) => r.kind !== "same") : comparison.rows), [comparison, onlyDifferences]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is a mutable object; nothing here memoises on it.
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const { counts, outcome, durationMs } = comparison;
  const row = selected === undefined ? undefined : rows[selected];
  return (
    <div className={styles.view} aria-label="Compare runs">
      <div className={`toolbar ${styles.filters}`}>
        <strong>
          {a.title ?? a.id} → {b.title ?? b.id}
        </strong>
        <span className="spacer" />
        <label className="check">
          <input type="checkbox" checked={onlyDifferences} onChange={(event) => setOnlyDifferences(event.target.checked)} /> only differences
        </label>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className={styles.summary}>
        <span>
          same <b>{counts.same}</b>
        </span>
        <span className={styles["kind-changed"]}>
          changed <b>{counts.changed}</b>
        </span>
        <span className={styles["kind-added"]}>
          added <b>{counts.added}</b>
        </span>
        <span className={styles["kind-removed"]}>
          removed <b>{counts.removed}</b>
        </span>
        <span>
          outcome <b>{outcome.a}</b> → <b>{outcome.b}</b>
          {comparison.resultChanged ? " (value changed)" : " (same value)"}
        </span>
        <span>
          duration <b>{formatDuration(durationMs.a)}</b> → <b>{formatDuration(durationMs.b)}</b>
        </span>
        <span>{comparison.sameCode ? "same code" : "different code"}</span>
      </div>
      <div ref={scrollRef} className={styles.scroll} role="list" aria-label="Compared calls">
        <div className={styles.rows} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const compared = rows[item.index];
            if (!compared) return null;
            return (
              <div
                key={item.key}
                role="listitem"
                className={`${styles.compareRow} ${selected === item.index ? styles.selected : ""}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <button type="button" className={`link ${styles[`kind-${compared.kind}`] ?? ""}`} onClick={() => setSelected(item.index)}>
                  {compared.kind}
                </button>
                <span className={styles.labelText}>{describe(compared.a)}</span>
                <span className={styles.labelText}>
                  {describe(compared.b)}
                  {compared.differences.length > 0 && <span className="muted"> ({compared.differences.join(", ")})</span>}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {row && <ComparedDetails row={row} />}
    </div>
  );
}

function describe(call: RecordedCall | undefined): string {
  if (!call) return "—";
  return `#${call.callId} ${callLabel(call)}(${clip(call.args === undefined ? "" : stableJson(call.args), 80)}) ${recordedStatus(call)}`;
}

function ComparedDetails({ row }: { row: ComparedCall }) {
  return (
    <section className={styles.details} aria-label="Compared call details" style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 10 }}>
      {[row.a, row.b].map((call, i) => (
        <div key={i}>
          <h4>{i === 0 ? "before" : "after"}</h4>
          {call ? (
            <>
              <JsonView value={call.args ?? {}} label="Arguments" />
              <h4>{call.outcome.kind === "error" ? "error" : "result"}</h4>
              {call.outcome.kind === "error" ? <div className="error-box">{call.outcome.error}</div> : <JsonView value={outcomeValue(call)} label="Result" />}
            </>
          ) : (
            <p className="muted">not called</p>
          )}
        </div>
      ))}
    </section>
  );
}

function outcomeValue(call: RecordedCall): unknown {
  const { outcome } = call;
  if (outcome.kind === "value") return outcome.value;
  if (outcome.kind === "truncated") return { truncated: outcome.truncated.chars, preview: outcome.truncated.preview };
  return "(no result: the run ended first)";
}
