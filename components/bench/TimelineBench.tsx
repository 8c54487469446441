"use client";

import { useEffect, useRef, useState } from "react";
import { RecordedTimeline } from "@/components/timeline/RecordedTimeline";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import type { RunRecord } from "@/lib/timeline/run-record";

interface TimelineFigures {
  calls: number;
  buildMs: number;
  firstPaintMs: number;
  rowsInDom: number;
  heapDeltaMb?: number;
}

/** Chromium's non-standard heap counter; undefined elsewhere. */
function usedHeap(): number | undefined {
  return (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;
}

/**
 * Measures the waterfall with 10 000 calls in this browser: time from "render" to the first
 * painted frame (two animation frames after commit) and the JS heap it added (Chromium only).
 */
export function TimelineBench() {
  const [record, setRecord] = useState<RunRecord | undefined>(undefined);
  const [figures, setFigures] = useState<TimelineFigures | undefined>(undefined);
  const started = useRef<{ t0: number; heap: number | undefined; buildMs: number } | null>(null);
  const host = useRef<HTMLDivElement>(null);

  const start = () => {
    setFigures(undefined);
    const heap = usedHeap();
    const t0 = performance.now();
    const run = syntheticRun(10_000);
    started.current = { t0, heap, buildMs: performance.now() - t0 };
    setRecord(run);
  };

  useEffect(() => {
    const begun = started.current;
    if (!record || !begun) return;
    // Two frames after the commit: the first paint of the rendered waterfall has happened.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const heap = usedHeap();
        const figuresNow: TimelineFigures = {
          calls: 10_000,
          buildMs: begun.buildMs,
          firstPaintMs: performance.now() - begun.t0,
          rowsInDom: host.current?.querySelectorAll('[data-testid="timeline-row"]').length ?? 0,
          ...(heap !== undefined && begun.heap !== undefined ? { heapDeltaMb: (heap - begun.heap) / (1024 * 1024) } : {}),
        };
        setFigures(figuresNow);
      }),
    );
  }, [record]);

  return (
    <section aria-label="Timeline benchmark">
      <h2>Timeline with 10 000 calls</h2>
      <button type="button" onClick={start}>
        Run timeline benchmark
      </button>
      {figures && <pre data-testid="timeline-bench-json">{JSON.stringify(figures)}</pre>}
      <div ref={host} style={{ height: 400, overflow: "hidden", border: "1px solid var(--border)" }}>
        {record && <RecordedTimeline record={record} />}
      </div>
    </section>
  );
}
