"use client";

import { countRender } from "@/components/dev/render-probe";
import { useStoredChoice } from "@/components/hooks/use-stored-choice";
import { useEffect, useState } from "react";
import { statusLabel, type RunView } from "@/lib/timeline/run-view";
import { RunResultView } from "./RunResultView";
import { LogList } from "./LogList";
import { TimelinePanel } from "@/components/timeline/TimelinePanel";
import type { LiveRun, LiveRunStore } from "@/lib/timeline/live-run-store";
import { EMPTY_CALL_RECORDS } from "@/lib/timeline/call-records";
import { useStore } from "@/components/hooks/use-store";
import type { UseTimelineDebuggerResult } from "@/components/hooks/use-timeline-debugger";
import { Badge, toneOf } from "@/components/ui/Badge";
import { useWaiting, waitingLabel, WaitingPrompts } from "@/components/timeline/Waiting";

/** Tabs whose choice survives a reload. */
export const OUTPUT_TABS = ["output", "timeline"] as const;
const IDLE_RUN: LiveRun = { view: { status: "idle" }, calls: EMPTY_CALL_RECORDS };

export interface OutputPanelProps {
  live: LiveRunStore;
  debug: UseTimelineDebuggerResult;
  onUseCode: (code: string) => void;
  onRevealLine?: (line: number) => void;
  /** Offered after a run the person started from the editor: hands its result to the model. */
  onSendToChat?: (() => void) | undefined;
  /** Step mode: the model's program is in the editor and waits for the person to run or skip it. */
  stepWaiting?: boolean;
}

/** The Output panel: the current run's status, value, console and stats, and the timeline of its tool calls. */
export function OutputPanel({ live, debug, onUseCode, onRevealLine, onSendToChat, stepWaiting = false }: OutputPanelProps) {
  countRender("output");
  // Re-renders once per frame while a run streams (the live store batches by frame).
  const { view: state, calls } = useStore(live, undefined, { fallback: IDLE_RUN });
  const [tab, setTab] = useStoredChoice("cmp.tab.output", OUTPUT_TABS, "output");
  const waiting = useWaiting();
  // Before any run the badge says what waits; after one it keeps that run's outcome, and the notice below says what waits.
  const waitingFor =
    state.status === "running" ? waitingLabel(waiting.pending, waiting.asks) : stepWaiting && state.status === "idle" ? "waits for Run" : undefined;
  const label = waitingFor ?? statusLabel(state);
  const tone = waitingFor ? "waiting" : state.status === "idle" ? "idle" : state.status === "running" ? "running" : label === "ok" ? "ok" : "error";

  return (
    <section className="panel" aria-label="Output">
      <div className="panel-header">
        <div className="tabs" role="tablist" aria-label="Output views">
          <button type="button" role="tab" aria-selected={tab === "output"} onClick={() => setTab("output")}>
            Output
          </button>
          <button type="button" role="tab" aria-selected={tab === "timeline"} onClick={() => setTab("timeline")}>
            Timeline
            {waiting.pending.length + waiting.asks.length > 0 ? (
              <>
                {" "}
                <Badge tone="waiting">{waiting.pending.length + waiting.asks.length} waiting</Badge>
              </>
            ) : null}
          </button>
        </div>
        <span className="spacer" />
        {onSendToChat && state.status === "done" && (
          <button type="button" onClick={onSendToChat} title="Sends the code you ran and its result to the model as your next message">
            Send this result to the model
          </button>
        )}
        <Badge mono tone={toneOf(tone)} role="status" aria-label="Run status" data-testid="run-status">
          {label}
        </Badge>
      </div>
      <div className="panel-body" role="tabpanel">
        {tab === "output" ? (
          <>
            <WaitingPrompts />
            {stepWaiting && state.status !== "running" ? (
              <div className="next-run-notice" role="status" aria-label="The model's program waits">
                <span>
                  <b>The model&apos;s program is in the editor and waits for you</b> (step mode): run it with <kbd>Ctrl+Enter</kbd> or Run, edit it first, or
                  Skip it. Its result goes back to the model.
                </span>
              </div>
            ) : null}
            {debug.replay && state.status !== "running" ? (
              <div className="next-run-notice" role="status" aria-label="Replay armed">
                <span>
                  The next Run answers from the recording of <b>{debug.replay.record.title ?? debug.replay.record.id}</b>, offline; after it, runs are live
                  again.
                </span>
                <button type="button" onClick={() => debug.setReplay(undefined)}>
                  Cancel replay
                </button>
              </div>
            ) : null}
            {stepWaiting && state.status === "idle" ? null : <OutputBody state={state} />}
          </>
        ) : (
          <TimelinePanel calls={calls} run={state} debug={debug} onUseCode={onUseCode} {...(onRevealLine ? { onRevealLine } : {})} />
        )}
      </div>
    </section>
  );
}

function OutputBody({ state }: { state: RunView }) {
  if (state.status === "idle") {
    return (
      <div className="empty-state">
        <h3>Nothing has run yet</h3>
        <p>
          Press <kbd>Ctrl+Enter</kbd> in the editor, or Run, to execute the code in the sandbox. The returned value, console lines and run statistics appear
          here.
        </p>
      </div>
    );
  }
  if (state.status === "running") {
    return (
      <div className="output">
        <div className="stats" aria-label="Run progress">
          <span>
            running <Elapsed since={state.startedAt} />
          </span>
          <span>
            tool calls <b>{state.callsEnded}</b>/<b>{state.callsStarted}</b> done
          </span>
        </div>
        {state.logs.length > 0 && (
          <section aria-label="Console">
            <h3>Console</h3>
            <LogList logs={state.logs} />
          </section>
        )}
      </div>
    );
  }
  return <RunResultView result={state.result} />;
}

/** Seconds since a run started, ticking while it goes (Date.now(), the clock the run view starts from). */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return <b>{(Math.max(0, now - since) / 1000).toFixed(1)} s</b>;
}
