"use client";

import type { CallDecider, PresetDecision } from "@/lib/host-calls/approvals";
import type { RunSource } from "@/lib/timeline/history";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ServerTools } from "@/lib/codemode/types";
import { hostApiOf } from "@/lib/sandbox/host-api";
import type { HostFunctions } from "@/lib/sandbox/types";
import type { CallProgress } from "@/lib/timeline/call-records";
import { buildDebugHost } from "@/lib/host-calls/debug-host";
import { namespacesOf } from "@/lib/timeline/namespaces";
import { RunRecorder, type HostReport } from "@/lib/timeline/recorder";
import type { Divergence } from "@/lib/host-calls/replay";
import type { RunObserver } from "@/lib/timeline/run-observer";
import type { RunRecord } from "@/lib/timeline/run-record";
import { useTimelineApprovals, type UseTimelineApprovalsResult } from "./use-timeline-approvals";
import { useAgentRuns } from "./use-agent-runs";
import type { FeedStatus } from "@/lib/codemode-mcp/browser/run-feed-client";
import { useTimelineHistory, type UseTimelineHistoryResult } from "./use-timeline-history";
import { useTimelineMocks, type UseTimelineMocksResult } from "./use-timeline-mocks";

/**
 * Builds a run's live host functions (use-mcp's hostFor): `report` ties what the host learns to
 * the call's row; `onProgress`, when the host passes it to buildHostFunctions, brings MCP progress
 * notifications to the row and the record.
 */
export type LiveHostFor = (report: (callId: number, info: HostReport) => void, onProgress?: (callId: number, progress: CallProgress) => void) => HostFunctions;

/** The next run replays this recorded run. */
export interface ReplayChoice {
  record: RunRecord;
  onMismatch: "stop" | "live";
}

/** How one run's host functions are prepared. */
export interface PrepareOptions {
  /** The person approved this program (step mode): its calls that need approval are approved, and marked so. */
  preApproved?: boolean;
  /** Calls that need approval decided in advance (evals: the suite's policy); "ask" (the default) puts them to the person. */
  destructive?: PresetDecision | "ask";
  /** Told how long each approval waited for the person, so an eval's wall time can leave it out. */
  onWaited?: (ms: number) => void;
  /** Where the run comes from, for the history (default: the editor). */
  source?: RunSource;
}

/** Everything the timeline's debugging tools need, from one hook. */
export interface UseTimelineDebuggerResult {
  /** Pass as use-sandbox-run's prepareHost: live servers behind mocks > replay > approvals, with recording. */
  prepareHost: (report: (callId: number, info: HostReport) => void, options?: PrepareOptions) => HostFunctions;
  /** Pass as use-sandbox-run's run observer: records each run into the history. */
  observer: RunObserver;
  history: UseTimelineHistoryResult;
  approvals: UseTimelineApprovalsResult;
  mocks: UseTimelineMocksResult;
  replay: ReplayChoice | undefined;
  setReplay: (choice: ReplayChoice | undefined) => void;
  /** Where the last replayed run left its recording, if it did. */
  divergence: Divergence | undefined;
  /** Server and tool names as the code sees them (for the tools list and the mock editor). */
  namespaces: ReturnType<typeof namespacesOf>;
  /** Whether agents' runs through the app's code-mode MCP endpoint stream into the history (local mode). */
  agentFeed: FeedStatus | undefined;
}

interface CurrentRun {
  recorder: RunRecorder | undefined;
  /** Host reports that arrived before the run's start was observed. */
  early: Array<[number, HostReport]>;
  replayOf: string | undefined;
  source: RunSource;
}

/** Wires mocks, replay, approvals and recording around the live host functions (docs/ARCHITECTURE.md, the data flow). */
export function useTimelineDebugger(hostFor: LiveHostFor, servers: readonly ServerTools[], localToken?: string): UseTimelineDebuggerResult {
  const history = useTimelineHistory();
  const addAgentRun = useCallback((record: RunRecord) => history.add(record, "agent"), [history]);
  const agentFeed = useAgentRuns(localToken, addAgentRun);
  const approvals = useTimelineApprovals(servers);
  const mocks = useTimelineMocks();
  const [replay, setReplay] = useState<ReplayChoice | undefined>(undefined);
  const [divergence, setDivergence] = useState<Divergence | undefined>(undefined);
  const namespaces = useMemo(() => namespacesOf(servers), [servers]);
  const current = useRef<CurrentRun | null>(null);

  // prepareHost runs inside the lead's run() callback: it reads the latest choices through refs.
  const latest = useRef({ mocks: mocks.mocks, replay, namespaces });
  useEffect(() => {
    latest.current = { mocks: mocks.mocks, replay, namespaces };
  }, [mocks.mocks, replay, namespaces]);

  const { gate, denyAll } = approvals;
  const { runScript } = mocks;
  const prepareHost = useCallback(
    (report: (callId: number, info: HostReport) => void, options: PrepareOptions = {}): HostFunctions => {
      const { mocks: table, replay: choice, namespaces: names } = latest.current;
      const run: CurrentRun = { recorder: undefined, early: [], replayOf: choice?.record.id, source: options.source ?? "editor" };
      current.current = run;
      setDivergence(undefined);
      const onInfo = (callId: number, info: HostReport) => {
        report(callId, info);
        if (run.recorder) run.recorder.onCallInfo(callId, info);
        else run.early.push([callId, info]);
      };
      const onProgress = (callId: number, progress: CallProgress) => onInfo(callId, { progress: { ...progress } });
      const preset: PresetDecision | undefined = options.preApproved ? "approve" : options.destructive === "ask" ? undefined : options.destructive;
      const onWaited = options.onWaited;
      const asking = onWaited
        ? {
            ...gate,
            request: async (...args: Parameters<typeof gate.request>) => {
              const started = performance.now();
              try {
                return await gate.request(...args);
              } finally {
                onWaited(performance.now() - started);
              }
            },
          }
        : gate;
      // A program the person approved as a whole, or a run's decision made in advance, answers without asking.
      const decider: CallDecider = preset !== undefined ? { by: "policy", decision: preset } : { by: "person", request: asking.request };
      return buildDebugHost({
        live: hostFor(onInfo, onProgress),
        names,
        onInfo,
        policy: { needsApproval: gate.needsApproval, decider: () => decider },
        mocks: table,
        runScript,
        ...(choice ? { replay: { record: choice.record, onMismatch: choice.onMismatch, onDivergence: setDivergence } } : {}),
      });
    },
    [hostFor, gate, runScript],
  );

  const { add } = history;
  const observer = useMemo<RunObserver>(
    () => ({
      onStart(runId, request, host) {
        const run = current.current;
        if (!run) return;
        const { namespaces: names } = latest.current;
        run.recorder = new RunRecorder({
          id: runId,
          code: request.code,
          api: hostApiOf(host),
          names,
          ...(request.limits ? { limits: request.limits } : {}),
          ...(run.replayOf ? { replayOf: run.replayOf } : {}),
        });
        for (const [callId, info] of run.early.splice(0)) run.recorder.onCallInfo(callId, info);
      },
      onEvent(_runId, event) {
        current.current?.recorder?.onEvent(event);
      },
      onFinish(_runId, result) {
        const recorder = current.current?.recorder;
        const source = current.current?.source;
        // An armed replay answers one run: the next Run is live again unless the person re-arms it.
        if (current.current?.replayOf !== undefined) setReplay(undefined);
        current.current = null;
        // A prompt left open belongs to a run that is over.
        denyAll();
        if (recorder) add(recorder.finish(result), source);
      },
    }),
    [add, denyAll],
  );

  return { prepareHost, observer, history, approvals, mocks, replay, setReplay, divergence, namespaces, agentFeed };
}
