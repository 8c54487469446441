"use client";

import { useMemo } from "react";
import { recordView } from "@/lib/timeline/record-view";
import type { RunRecord } from "@/lib/timeline/run-record";
import { TimelineList } from "./TimelineList";

/** The waterfall of a recorded run (a loaded file, or syntheticRun(10_000) to measure first paint). */
export function RecordedTimeline({ record, onRevealLine }: { record: RunRecord; onRevealLine?: (line: number) => void }) {
  const view = useMemo(() => recordView(record), [record]);
  return (
    <TimelineList
      started
      calls={view.calls}
      logs={view.logs}
      {...(view.result ? { endMs: view.result.stats.wallMs } : {})}
      {...(onRevealLine ? { onRevealLine } : {})}
    />
  );
}
