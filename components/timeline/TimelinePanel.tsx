"use client";

import { useStoredChoice } from "@/components/hooks/use-stored-choice";
import { useMemo, useState } from "react";
import type { UseTimelineDebuggerResult } from "@/components/hooks/use-timeline-debugger";
import type { CallRecordsState } from "@/lib/timeline/call-records";
import { countMocks } from "@/lib/host-calls/mocks";
import { recordView } from "@/lib/timeline/record-view";
import { recordedCalls, recordStart } from "@/lib/timeline/run-record";
import { MAX_HISTORY } from "@/lib/timeline/history";
import type { RunView } from "@/lib/timeline/run-view";
import { RunCompare } from "./RunCompare";
import { RunHistory } from "./RunHistory";
import { TimelineList } from "./TimelineList";
import { ToolRules } from "./ToolRules";
import styles from "./Timeline.module.css";

/** Tabs whose choice survives a reload. */
export const TIMELINE_TABS: readonly Tab[] = ["calls", "runs", "tools"];

/** The live run, the debugging tools, and what the editor can do for the timeline. */
export interface TimelinePanelProps {
  calls: CallRecordsState;
  run: RunView;
  debug: UseTimelineDebuggerResult;
  /** Jumps the editor to a line (call → code links, once the engine reports lines). */
  onRevealLine?: (line: number) => void;
  /** Puts a recorded run's code in the editor, so it can be replayed. */
  onUseCode?: (code: string) => void;
}

export type Tab = "calls" | "runs" | "tools";

/** The timeline: waterfall of the live (or a past) run, the session's runs with compare and replay, and tool mocks and approvals. */
export function TimelinePanel({ calls, run, debug, onRevealLine, onUseCode }: TimelinePanelProps) {
  const [tab, setTab] = useStoredChoice<Tab>("cmp.tab.timeline", TIMELINE_TABS, "calls");
  const { viewing, setViewing } = debug;
  const [comparing, setComparing] = useState<readonly [string, string] | undefined>(undefined);
  const { history, approvals, mocks, replay, setReplay, divergence } = debug;
  const entry = viewing === undefined ? undefined : history.history.find((e) => e.record.id === viewing);
  const past = useMemo(() => (entry ? recordView(entry.record) : undefined), [entry]);
  const liveLogs = run.status === "running" ? run.logs : run.status === "done" ? run.result.logs : undefined;
  const liveEnd = run.status === "done" ? run.result.stats.wallMs : undefined;
  const pair = comparing?.map((id) => history.history.find((e) => e.record.id === id)?.record);
  const tabButton = (id: Tab, label: string) => (
    <button type="button" role="tab" aria-selected={tab === id} onClick={() => setTab(id)}>
      {label}
    </button>
  );

  return (
    <div className={styles.timelinePanel}>
      <div className={`tabs toolbar ${styles.filters}`} role="tablist" aria-label="Timeline views" style={{ padding: "4px 10px 0" }}>
        {tabButton("calls", viewing ? `Calls (${viewing})` : "Calls")}
        {tabButton("runs", `Runs (${history.history.length})`)}
        {tabButton("tools", countMocks(mocks.mocks) > 0 ? `Mocks & approvals (${countMocks(mocks.mocks)} mocked)` : "Mocks & approvals")}
      </div>
      {replay && (
        <div className={styles.banner} role="status">
          <span>
            Next run replays <b>{replay.record.id}</b> ({recordedCalls(replay.record).length} recorded calls). If the code calls something else:
          </span>
          <select
            aria-label="On mismatch"
            value={replay.onMismatch}
            onChange={(event) => setReplay({ ...replay, onMismatch: event.target.value as "stop" | "live" })}
          >
            <option value="stop">stop the run</option>
            <option value="live">call the live server</option>
          </select>
          {onUseCode && recordStart(replay.record)?.code !== undefined && (
            <button type="button" onClick={() => onUseCode(recordStart(replay.record)?.code ?? "")}>
              Load its code
            </button>
          )}
          <button type="button" onClick={() => setReplay(undefined)}>
            Cancel replay
          </button>
        </div>
      )}
      {divergence && (
        <div className={`${styles.banner} ${styles.bannerWarn}`} role="alert">
          {divergence.message}
        </div>
      )}
      <div role="tabpanel" style={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
        {tab === "calls" && past && (
          <div className={styles.banner} role="status">
            <span>
              Viewing the recorded run <b>{entry?.record.title ?? viewing}</b>, not the live one.
            </span>
            {onUseCode && entry && recordStart(entry.record)?.code !== undefined && (
              <button type="button" onClick={() => onUseCode(recordStart(entry.record)?.code ?? "")}>
                Open its code in the editor
              </button>
            )}
            <button type="button" onClick={() => setViewing(undefined)}>
              Back to the live run
            </button>
          </div>
        )}
        {tab === "calls" && viewing !== undefined && !entry && (
          <div className={`${styles.banner} ${styles.bannerWarn}`} role="status" data-testid="run-evicted">
            <span>
              The run <b>{viewing}</b> is no longer kept: this session keeps the newest {MAX_HISTORY} runs of the conversation, of the editor, and of evals and
              comparisons. Runs you download from the Runs tab stay whole.
            </span>
            <button type="button" onClick={() => setViewing(undefined)}>
              Back to the live run
            </button>
          </div>
        )}
        {tab === "calls" &&
          !(viewing !== undefined && !entry) &&
          (past ? (
            <TimelineList
              key={viewing}
              started
              calls={past.calls}
              logs={past.logs}
              {...(past.result ? { endMs: past.result.stats.wallMs } : {})}
              {...(onRevealLine ? { onRevealLine } : {})}
            />
          ) : (
            <TimelineList
              key="live"
              started={run.status !== "idle"}
              calls={calls}
              {...(liveLogs ? { logs: liveLogs } : {})}
              {...(liveEnd !== undefined ? { endMs: liveEnd } : {})}
              approvals={approvals.pending}
              onDecide={approvals.decide}
              {...(onRevealLine ? { onRevealLine } : {})}
            />
          ))}
        {tab === "runs" &&
          (pair?.[0] && pair[1] ? (
            <RunCompare a={pair[0]} b={pair[1]} onClose={() => setComparing(undefined)} />
          ) : (
            <RunHistory
              history={history.history}
              agentFeed={debug.agentFeed}
              viewing={viewing}
              onView={(id) => {
                setViewing(id);
                if (id !== undefined) setTab("calls");
              }}
              onReplay={(record) => setReplay({ record, onMismatch: replay?.onMismatch ?? "stop" })}
              onExport={history.download}
              onExportTrace={history.downloadTrace}
              onRemove={(id) => {
                history.remove(id);
                if (viewing === id) setViewing(undefined);
              }}
              onCompare={(a, b) => setComparing([a, b])}
              onImport={async (file) => {
                const imported = await history.importFile(file);
                return "error" in imported ? imported.error.message : undefined;
              }}
            />
          ))}
        {tab === "tools" && (
          <ToolRules
            namespaces={debug.namespaces}
            mocks={mocks.mocks}
            onMock={mocks.setMock}
            destructive={approvals.destructive}
            marked={approvals.marked}
            onToggleMarked={approvals.toggleMarked}
          />
        )}
      </div>
    </div>
  );
}
