"use client";

import { useMemo } from "react";
import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import type { MockTable, ToolMock } from "@/lib/host-calls/mocks";
import type { Divergence } from "@/lib/host-calls/replay";
import type { FeedStatus } from "@/lib/codemode-mcp/browser/run-feed-client";
import type { HistoryEntry, RunSource } from "@/lib/timeline/history";
import { namespacesOf } from "@/lib/timeline/namespaces";
import { exportRunFile, runFileName, type RunFileError } from "@/lib/timeline/run-file";
import type { RunRecord } from "@/lib/timeline/run-record";
import { otlpTraces, runRecordSpan } from "@/lib/timeline/otlp";
import { destructiveTools } from "@/lib/playground/page-approvals";
import { downloadText } from "@/components/ui/download";
import type { ReplayChoice, ReplayState } from "@/lib/playground/workbench";
import type { ServersView } from "@/lib/playground/page-servers";

export type { ReplayChoice } from "@/lib/playground/workbench";

/** The session's recorded runs, and saving and loading run files. */
export interface UseTimelineHistoryResult {
  history: readonly HistoryEntry[];
  add: (record: RunRecord, source?: RunSource) => void;
  remove: (id: string) => void;
  clear: () => void;
  /** Reads a run file into the history; resolves with the record, or why the file was refused. */
  importFile: (file: File) => Promise<{ record: RunRecord } | { error: RunFileError }>;
  /** Saves a run as a .json file (a download). */
  download: (record: RunRecord) => void;
  /** Saves a run as an OpenTelemetry trace (OTLP JSON; no arguments or results). */
  downloadTrace: (record: RunRecord) => void;
}

/** Approval prompts, the person's answers, and which tools need approval. */
export interface UseTimelineApprovalsResult {
  pending: readonly PendingApproval[];
  decide: (callId: number, decision: ApprovalDecision) => void;
  /** Tools the person marked (toolKey); destructive tools need approval whether marked or not. */
  marked: ReadonlySet<string>;
  toggleMarked: (server: string, tool: string) => void;
  /** Tools that declare destructiveHint (toolKey): they always ask. */
  destructive: ReadonlySet<string>;
}

export interface UseTimelineMocksResult {
  mocks: MockTable;
  setMock: (namespace: string, fn: string, mock: ToolMock | undefined) => void;
  clear: () => void;
}

/** The timeline's debugging tools (lib/playground/workbench.ts), as the timeline panel reads them. */
export interface UseTimelineDebuggerResult {
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
  /** The recorded run the Calls view shows (undefined: the live run), and choosing it. */
  viewing: string | undefined;
  setViewing: (id: string | undefined) => void;
}

const NO_RUNS: readonly HistoryEntry[] = [];
const NO_PENDING: readonly PendingApproval[] = [];
const NO_MARKS: ReadonlySet<string> = new Set();
const NO_MOCKS: MockTable = {};
const NO_REPLAY: ReplayState = { choice: undefined, divergence: undefined };
const serversOf = (view: ServersView) => view.catalog.servers;

/** The workbench's debugging stores, subscribed to by the component that shows them. */
export function useTimelineDebugger(): UseTimelineDebuggerResult {
  const { playground, agentFeed: feed } = usePage();
  const { workbench } = playground;
  const runs = useStore(workbench.history, undefined, { fallback: NO_RUNS });
  const pending = useStore(workbench.approvals.broker, undefined, { fallback: NO_PENDING });
  const marked = useStore(workbench.approvals.marked, undefined, { fallback: NO_MARKS });
  const mocks = useStore(workbench.mocks, undefined, { fallback: NO_MOCKS });
  const replay = useStore(workbench.replay, undefined, { fallback: NO_REPLAY });
  const agentFeed = useStore(feed, undefined, { fallback: undefined });
  const viewing = useStore(workbench.runInView, undefined, { fallback: undefined });
  const servers = useStore(playground.servers.view, serversOf, { fallback: [] });
  const namespaces = useMemo(() => namespacesOf(servers), [servers]);
  const destructive = useMemo(() => destructiveTools(servers), [servers]);

  const history = useMemo<UseTimelineHistoryResult>(
    () => ({
      history: runs,
      add: (record, source) => workbench.history.add(record, source),
      remove: (id) => workbench.history.remove(id),
      clear: () => workbench.history.clear(),
      importFile: async (file) => workbench.history.importText(await file.text()),
      download: (record) => downloadText(exportRunFile(record), runFileName(record)),
      downloadTrace: (record) =>
        downloadText(JSON.stringify(otlpTraces([runRecordSpan(record)]), null, 2), runFileName(record).replace(/\.json$/, ".otlp.json")),
    }),
    [runs, workbench],
  );
  const approvals = useMemo<UseTimelineApprovalsResult>(
    () => ({
      pending,
      decide: (callId, decision) => workbench.approvals.broker.decide(callId, decision),
      marked,
      toggleMarked: (server, tool) => workbench.approvals.marked.toggle(server, tool),
      destructive,
    }),
    [pending, marked, destructive, workbench],
  );
  const mockView = useMemo<UseTimelineMocksResult>(
    () => ({ mocks, setMock: (namespace, fn, mock) => workbench.mocks.setMock(namespace, fn, mock), clear: () => workbench.mocks.clear() }),
    [mocks, workbench],
  );
  return {
    history,
    approvals,
    mocks: mockView,
    replay: replay.choice,
    setReplay: (choice) => workbench.replay.arm(choice),
    divergence: replay.divergence,
    namespaces,
    agentFeed,
    viewing,
    setViewing: (id) => workbench.runInView.show(id),
  };
}

/** The approval prompts alone (the compare and eval dialogs show them while they run). */
export function usePendingApprovals(): Pick<UseTimelineApprovalsResult, "pending" | "decide"> {
  const { broker } = usePage().playground.workbench.approvals;
  const pending = useStore(broker, undefined, { fallback: NO_PENDING });
  return { pending, decide: (callId, decision) => broker.decide(callId, decision) };
}
