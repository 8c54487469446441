"use client";

/**
 * Each panel's own subscription (docs/page-state.md, "Page state"): a slot reads its panel's
 * slice of the page's stores and hands the panel plain props and actions, so a change re-renders
 * the panels that show it and nothing else. The panels stay presentational.
 */
import { useEffect, useMemo, useState, type ReactNode, type RefObject } from "react";
import { usePage } from "./page-context";
import { useStore } from "@/components/hooks/use-store";
import { useMcp } from "@/components/hooks/use-mcp";
import { useChatModel } from "@/components/hooks/use-chat-model";
import { useEditorState } from "@/components/hooks/use-editor-code";
import { useRunLimits } from "@/components/hooks/use-run-limits";
import { useTimelineDebugger } from "@/components/hooks/use-timeline-debugger";
import { useSampler } from "@/components/hooks/use-sampler";
import type { ShareLinkState } from "@/lib/share/browser/share-link-store";
import { ShareBanner } from "@/components/share/ShareBanner";
import dynamic from "next/dynamic";
import { ServersPanel } from "@/components/servers/ServersPanel";
import { ChatPanel } from "@/components/chat/ChatPanel";
import type { ChatDraft } from "@/components/chat/chat-draft";
import type { EditorHandle } from "@/components/editor/CodeEditor";
import { EditorPanel } from "@/components/editor/EditorPanel";
import { OUTPUT_TABS, OutputPanel } from "@/components/output/OutputPanel";
import { TIMELINE_TABS, type Tab as TimelineTab } from "@/components/timeline/TimelinePanel";
import { useStoredChoice } from "@/components/hooks/use-stored-choice";
import { ServerRequestDialog } from "@/components/servers/ServerRequestDialog";
import { WaitingContext } from "@/components/timeline/Waiting";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { exploreProgram } from "@/lib/mcp/explore-program";
import { caseFromTestCall } from "@/lib/evals/suite";
import { describeSession } from "@/lib/model/session-snapshot";
import type { ChatSessionState } from "@/lib/model/chat-session";
import type { PendingServerRequest } from "@/lib/mcp/server-requests";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import { hasDestructiveTools, modelChoice } from "@/lib/playground/model-settings";
import type { ServersView } from "@/lib/playground/page-servers";
import type { SandboxState } from "@/lib/playground/workbench";
import { errorLocation, type RunView } from "@/lib/timeline/run-view";
import type { LiveRun } from "@/lib/timeline/live-run-store";
import { createToolCatalog, DISCOVERY_DECLARATION } from "@/lib/codemode";
import { dataDeclarations, parseDataGlobals } from "@/lib/editor/data-globals";
import type { HistoryEntry } from "@/lib/timeline/history";
import type { RunRecord } from "@/lib/timeline/run-record";

// Loaded when first opened, not with the page (docs/speed.md, "The page's start").
const ShareDialog = dynamic(() => import("@/components/share/ShareDialog").then((m) => m.ShareDialog));
const SaveSkillDialog = dynamic(() => import("@/components/skills/SaveSkillDialog").then((m) => m.SaveSkillDialog));

const NO_ASKS: readonly PendingServerRequest[] = [];
const NO_RUNS: readonly HistoryEntry[] = [];
const NO_PENDING: readonly PendingApproval[] = [];
const STARTING: SandboxState = { ready: false, ranCode: undefined };
const IDLE: RunView = { status: "idle" };
const EMPTY_CATALOG = createToolCatalog([]);
const catalogOf = (view: ServersView) => view.catalog;
const isRunning = (run: LiveRun) => run.view.status === "running";
/** The view when no run is going, else one constant: a running view changes every frame. */
const settledOf = (run: LiveRun) => (run.view.status === "running" ? IDLE : run.view);
const messageCount = (state: ChatSessionState) => state.messages.length;

/** What waits for the person (approvals, servers' questions), for every panel that says so; the tab's title carries a marker too. */
export function WaitingSlot({ children }: { children: ReactNode }) {
  const { playground } = usePage();
  const pending = useStore(playground.workbench.approvals.broker, undefined, { fallback: NO_PENDING });
  const asks = useStore(playground.servers.serverRequests, undefined, { fallback: NO_ASKS });
  const waiting = useMemo(
    () => ({
      pending,
      decide: (callId: number, decision: Parameters<typeof playground.workbench.approvals.broker.decide>[1]) =>
        playground.workbench.approvals.broker.decide(callId, decision),
      asks: asks.map((ask) => `${ask.serverName} ${ask.kind === "sampling" ? "asks the model" : "asks for input"}`),
    }),
    [pending, asks, playground],
  );
  const count = waiting.pending.length + waiting.asks.length;
  useEffect(() => {
    const base = document.title.replace(/^● Waiting for you · /, "");
    document.title = count > 0 ? `● Waiting for you · ${base}` : base;
  }, [count]);
  return <WaitingContext value={waiting}>{children}</WaitingContext>;
}

/** Whether the sandbox worker is up. */
export function SandboxStatus() {
  const ready = useStore(usePage().playground.workbench.sandbox, (s) => s.ready, { fallback: false });
  return (
    <span className="muted" data-testid="sandbox-state">
      {ready ? "sandbox ready" : "sandbox starting…"}
    </span>
  );
}

/** Clears the saved session: the conversation, the runs and the code history. */
export function ClearSessionSlot() {
  const { playground, session } = usePage();
  const messages = useStore(playground.chat, messageCount, { fallback: 0 });
  const runs = useStore(playground.workbench.history, (h) => h.length, { fallback: 0 });
  const codeHistory = useStore(playground.editor, (e) => e.history.length, { fallback: 0 });
  const droppedRuns = useStore(session, (s) => s.droppedRuns, { fallback: 0 });
  const counts = { messages, runs, codeHistory };
  const dropped = droppedRuns > 0 ? ` (${droppedRuns} older runs left out to stay under the size cap)` : "";
  return (
    <ConfirmButton
      label="Clear session"
      title={`This browser keeps the session across reloads: ${describeSession(counts)}${dropped}`}
      question={`Clear ${describeSession(counts)}? Servers, code and keys stay.`}
      confirmLabel="Clear"
      disabled={messages + runs + codeHistory === 0}
      onConfirm={() => void session.clear()}
    />
  );
}

/** A server's question during a call (elicitation, sampling), answered here. */
export function ServerAsksSlot() {
  const { playground } = usePage();
  const sampler = useSampler();
  return <ServerRequestDialog broker={playground.servers.serverRequests} sampler={sampler} />;
}

export function ServersSlot({ draft }: { draft: ChatDraft }) {
  const { playground } = usePage();
  const mcp = useMcp();
  const skillCount = useStore(playground.skills, (s) => s.entries.length, { fallback: 0 });
  return (
    <ServersPanel
      mcp={mcp}
      skillCount={skillCount}
      catalog={mcp.catalog}
      onSaveCase={(server, tool, args) => playground.evals.addCase(caseFromTestCall(server, tool, args))}
      onUseInChat={(text) => draft.insert(text)}
      onExplore={(name) => {
        const servers = mcp.catalog.servers;
        const code = exploreProgram(
          servers,
          servers.findIndex((s) => s.name === name),
        );
        if (code !== undefined) playground.editor.putCode(code, `explore-${name}`);
      }}
    />
  );
}

/** Who is connected and who is still connecting, by name: the chat's example groups say which. */
interface ServerPresence {
  connected: readonly string[];
  connecting: readonly string[];
}

const presenceOf = (view: ServersView): ServerPresence => ({
  connected: view.catalog.servers.map((s) => s.name),
  connecting: view.servers.filter((s) => view.statuses[s.id]?.state === "connecting").map((s) => s.name),
});
const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);
const samePresence = (a: ServerPresence | undefined, b: ServerPresence | undefined) =>
  a === b || (a !== undefined && b !== undefined && sameNames(a.connected, b.connected) && sameNames(a.connecting, b.connecting));

export function ChatSlot({ draft }: { draft: ChatDraft }) {
  const { playground } = usePage();
  const model = useChatModel();
  const catalog = useStore(playground.servers.view, catalogOf, { fallback: EMPTY_CATALOG });
  // Unknown on the server-rendered page (no marks there): the page connects its servers as it loads.
  const presence = useStore<ServersView, ServerPresence | undefined>(playground.servers.view, presenceOf, { fallback: undefined, equal: samePresence });
  // "Show run" on a program's card: its recorded run in the timeline's Calls view.
  const [, setOutputTab] = useStoredChoice("cmp.tab.output", OUTPUT_TABS, "output");
  const [, setTimelineTab] = useStoredChoice<TimelineTab>("cmp.tab.timeline", TIMELINE_TABS, "calls");
  const showRun = (toolCallId: string) => {
    const runId = playground.runOfToolCall(toolCallId);
    if (runId === undefined) return;
    playground.workbench.runInView.show(runId);
    setOutputTab("timeline");
    setTimelineTab("calls");
  };
  return (
    <ChatPanel
      onShowRun={showRun}
      session={playground.chat}
      model={model}
      hasDestructiveTools={hasDestructiveTools(catalog)}
      {...(presence ? { connectedServers: presence.connected, connectingServers: presence.connecting } : {})}
      draft={draft}
    />
  );
}

export function EditorSlot({ editorHandle }: { editorHandle: RefObject<EditorHandle | null> }) {
  const { playground } = usePage();
  const { workbench, editor, world } = playground;
  const { code, data, history, pending } = useEditorState();
  const inputs = useMemo(() => parseDataGlobals(data), [data]);
  // "Save as skill" saves the newest run of this very code that worked.
  const runs = useStore(workbench.history, undefined, { fallback: NO_RUNS });
  const toSave = useMemo(() => (runs.length > 0 ? playground.runToSave(code) : undefined), [runs, code, playground]);
  const sandbox = useStore(workbench.sandbox, undefined, { fallback: STARTING });
  // This slot re-renders when a run starts or ends, not on every frame of it.
  const running = useStore(workbench.live, isRunning, { fallback: false });
  const settled = useStore(workbench.live, settledOf, { fallback: IDLE });
  const catalog = useStore(playground.servers.view, catalogOf, { fallback: EMPTY_CATALOG });
  const askEachDestructive = useStore(playground.model, (m) => m.settings.askEachDestructive, { fallback: false });
  const limits = useRunLimits();
  // The editor knows `tools.search` and `tools.describe` too (lib/codemode/discovery-api.ts), and the inputs' globals.
  const editorTypes = useMemo(
    () => `${catalog.declarations.text}\n${DISCOVERY_DECLARATION}\n${inputs.ok ? dataDeclarations(inputs.data) : ""}`,
    [catalog, inputs],
  );
  return (
    <EditorPanel
      code={code}
      onCodeChange={editor.setCode}
      onReset={editor.reset}
      running={running}
      // Ctrl+Enter passes Monaco's text: a shortcut pressed right after a paste comes before React's render.
      onRun={pending ? () => world.approve({ askEachDestructive }) : (typed) => inputs.ok && playground.runFromEditor(typed)}
      pending={pending}
      onSkip={() => world.skip()}
      history={history}
      editorHandle={editorHandle}
      limits={limits}
      onStop={() => workbench.stop()}
      // A marker belongs to the code that failed: editing the code clears it.
      errorMarker={sandbox.ranCode === code ? errorLocation(settled) : undefined}
      declarations={editorTypes}
      data={data}
      onDataChange={editor.setData}
      dataProblem={inputs.ok ? undefined : inputs.message}
      onSaveSkill={toSave ? () => playground.skillDialog.open(toSave) : undefined}
    />
  );
}

export function OutputSlot({ onRevealLine }: { onRevealLine: (line: number) => void }) {
  const { playground } = usePage();
  const debug = useTimelineDebugger();
  const editorRun = useStore(playground.editorRun, undefined, { fallback: undefined });
  const hasMessages = useStore(playground.chat, (s) => s.messages.length > 0, { fallback: false });
  const stepWaiting = useStore(playground.editor, (e) => e.pending !== undefined, { fallback: false });
  return (
    <OutputPanel
      live={playground.workbench.live}
      debug={debug}
      onUseCode={playground.editor.setCode}
      onSendToChat={editorRun && hasMessages ? () => playground.sendEditorRun() : undefined}
      onRevealLine={onRevealLine}
      stepWaiting={stepWaiting}
    />
  );
}

/** The opened link's banner: its servers to add (against the registered ones) and its runs to replay. */
export function ShareBannerSlot({ state, onDismiss, onHide }: { state: ShareLinkState; onDismiss: () => void; onHide: () => void }) {
  const { playground } = usePage();
  const { servers, actions } = useMcp();
  return (
    <ShareBanner
      state={state}
      onDismiss={onDismiss}
      registered={servers}
      onAddServer={(input) => actions.add(input)}
      onReplayRun={(run) => playground.replayShared(run)}
      onHide={onHide}
    />
  );
}

/** The share dialog, reading the page once when it opens. */
export function ShareDialogSlot({ onOpenFile, onClose }: { onOpenFile: (file: Blob) => void; onClose: () => void }) {
  const { playground } = usePage();
  const [inputs] = useState(() => {
    const { servers, catalog } = playground.servers.view.snapshot();
    const { provider, modelId } = modelChoice(playground.model.snapshot(), catalog);
    return {
      servers,
      // The skills pseudo-server is not a server: skills travel on their own (ticked below).
      toolSnapshots: catalog.servers.filter((s) => s.namespace === undefined),
      code: playground.editor.snapshot().code,
      inputs: playground.editor.snapshot().data,
      systemPrompt: catalog.systemPrompt(),
      limits: playground.limits.snapshot(),
      messages: playground.chat.snapshot().messages,
      model: { provider, id: modelId },
    };
  });
  return (
    <ShareDialog
      inputs={inputs}
      runs={playground.workbench.history.snapshot()}
      skills={playground.skills.trusted()}
      onOpenFile={onOpenFile}
      onClose={onClose}
    />
  );
}

/** "Save as skill", open for the run the editor or the Runs list chose. */
export function SaveSkillSlot() {
  const { playground } = usePage();
  const record = useStore<RunRecord | undefined>(playground.skillDialog, undefined, { fallback: undefined });
  return record ? <SaveSkillDialog key={record.id} record={record} onClose={() => playground.skillDialog.close()} /> : null;
}
