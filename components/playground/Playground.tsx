"use client";

import { browserStorageOrNone } from "@/lib/storage/browser/browser-storage";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import { ServersPanel } from "@/components/servers/ServersPanel";
import { ChatPanel } from "@/components/chat/ChatPanel";
import type { EditorHandle } from "@/components/editor/CodeEditor";
import { EditorPanel } from "@/components/editor/EditorPanel";
import { OutputPanel } from "@/components/output/OutputPanel";
import { useSandboxRun } from "@/components/hooks/use-sandbox-run";
import { useEditorCode } from "@/components/hooks/use-editor-code";
import { useToolCatalog } from "@/components/hooks/use-tool-catalog";
import { useMcp } from "@/components/hooks/use-mcp";
import { useTimelineDebugger } from "@/components/hooks/use-timeline-debugger";
import { WaitingContext } from "@/components/timeline/Waiting";
import { exploreProgram } from "@/lib/mcp/explore-program";
import { useSessionPersistence } from "@/components/hooks/use-session-persistence";
import { describeSession } from "@/lib/model/session-snapshot";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { useChatBridge } from "@/components/hooks/use-chat-bridge";
import { useChatModel } from "@/components/hooks/use-chat-model";
import { useChatSession } from "@/components/hooks/use-chat-session";
import { useStore } from "@/components/hooks/use-store";
import { handlersForMode } from "@/lib/model/tool-handler";
import { applyShare, readySharedReplay } from "@/lib/playground/share-open";
import type { ChatSession } from "@/lib/model/chat-session";
import { useCompare } from "@/components/hooks/use-compare";
import { useEvals } from "@/components/hooks/use-evals";
import { EvalsDialog } from "@/components/evals/EvalsDialog";
import { caseFromTestCall } from "@/lib/evals/suite";
import { CompareDialog } from "@/components/compare/CompareDialog";
import { lastUserMessage } from "@/lib/model/conversation";
import { useRunLimits } from "@/components/hooks/use-run-limits";
import { useShareLink } from "@/components/hooks/use-share-link";
import { ShareBanner } from "@/components/share/ShareBanner";
import { ChannelBanner } from "./ChannelBanner";
import { ShareDialog } from "@/components/share/ShareDialog";
import { ServerRequestDialog } from "@/components/servers/ServerRequestDialog";
import { useSampler } from "@/components/hooks/use-sampler";
import { ChatDraft } from "@/components/chat/chat-draft";
import type { PendingServerRequest } from "@/lib/mcp/server-requests";
import { manualResultMessage } from "@/lib/model/manual-result";
import type { RunResult } from "@/lib/sandbox/types";

/** The whole playground: header and four resizable panels (Servers, Chat, Editor, Output). */
export function Playground() {
  const sandbox = useSandboxRun();
  const editor = useEditorCode();
  const mcp = useMcp();
  const catalog = useToolCatalog(mcp.serverTools);
  const debug = useTimelineDebugger(mcp.hostFor, mcp.serverTools, mcp.localToken);
  const limits = useRunLimits();
  const bridge = useChatBridge({ sandbox, editor, catalog, mcp, debug, limits: limits.overrides });
  const chatModel = useChatModel(
    { declarations: catalog.systemPrompt(), search: catalog.systemPrompt("search") },
    bridge.hasDestructiveTools,
    bridge.classicTools,
  );
  const chat = useChatSession({
    handlers: handlersForMode(chatModel.settings.toolMode, bridge.handlers),
    stopRun: bridge.stopRun,
    requestExtras: chatModel.requestExtras,
    policy: { maxSteps: chatModel.settings.maxSteps, returnDirectly: chatModel.settings.returnDirectly },
    stepMode: chatModel.stepMode,
    resultBudgetTokens: chatModel.settings.resultBudgetTokens,
  });
  // The page follows only whether there is a conversation: a streaming answer re-renders the chat panel alone.
  const hasMessages = useStore(chat, (state) => state.messages.length > 0, { fallback: false });
  const compare = useCompare(chatModel, bridge);
  const sampler = useSampler(chatModel);
  const [chatDraft] = useState(() => new ChatDraft());
  const [comparing, setComparing] = useState(false);
  const evals = useEvals(chatModel, bridge, mcp.serverTools);
  const [evaluating, setEvaluating] = useState(false);
  const [sharing, setSharing] = useState(false);
  // A run the person started from the editor can be handed to the model as their next message.
  const [manualRun, setManualRun] = useState<{ code: string; result: RunResult } | undefined>(undefined);
  const editorHandle = useRef<EditorHandle | null>(null);
  const revealLine = useCallback((line: number) => editorHandle.current?.revealLine(line), []);
  // Ctrl+Enter passes Monaco's text: a shortcut pressed right after a paste comes before React's render.
  const runFromEditor = (typed?: string) => {
    const code = typed ?? editor.code;
    setManualRun(undefined);
    void sandbox.run(code, debug.prepareHost, debug.observer, limits.overrides).then((result) => setManualRun({ code, result }));
  };
  const sendManualRun =
    manualRun && hasMessages
      ? () => {
          void chat.send(manualResultMessage(manualRun.code, manualRun.result));
          setManualRun(undefined);
        }
      : undefined;
  // A shared run replays offline: its recorded results answer the calls, no server is contacted.
  const { setReplay, history } = debug;
  const replaySharedRun = useCallback(
    (run: unknown) => {
      const record = readySharedReplay(run, { addRun: history.add, setCode: editor.setCode });
      if (record) setReplay({ record, onMismatch: "stop" });
    },
    [history, editor, setReplay],
  );
  // A shared link puts its code in the editor; it never starts a run (DESIGN: shared code never runs by itself).
  const [shareHidden, setShareHidden] = useState(false);
  const shareLink = useShareLink({
    onOpen: ({ state }) => {
      setShareHidden(false);
      applyShare(state, {
        addRun: debug.history.add,
        setCode: editor.setCode,
        adoptLimits: limits.adopt,
        restoreConversation: (messages) => void chat.restore(messages),
      });
    },
  });
  // Layouts persist in localStorage so a reload keeps the person's arrangement.
  const columns = useDefaultLayout({ id: "cmp-columns", storage: safeStorage() });
  const rows = useDefaultLayout({ id: "cmp-rows", storage: safeStorage() });

  const saved = useSessionPersistence({
    session: chat,
    runs: debug.history.history,
    addRun: debug.history.add,
    clearRuns: debug.history.clear,
    codeHistory: bridge.history,
    restoreCodeHistory: bridge.restoreHistory,
  });

  const serverAsks = useStore(mcp.serverRequests, undefined, { fallback: NO_ASKS });
  const waiting = useMemo(
    () => ({
      pending: debug.approvals.pending,
      decide: debug.approvals.decide,
      asks: serverAsks.map((ask) => `${ask.serverName} ${ask.kind === "sampling" ? "asks the model" : "asks for input"}`),
    }),
    [debug.approvals.pending, debug.approvals.decide, serverAsks],
  );
  useWaitingTitle(waiting.pending.length + waiting.asks.length);

  return (
    <WaitingContext value={waiting}>
      <div className="app">
        <header className="app-header">
          <h1>Code Mode Playground</h1>
          <span className="tagline">The model writes one program; it runs in a QuickJS sandbox; every tool call lands on a timeline.</span>
          <span className="spacer" />
          <span className="muted" data-testid="sandbox-state">
            {sandbox.ready ? "sandbox ready" : "sandbox starting…"}
          </span>
          <button type="button" onClick={() => setEvaluating(true)} title="Run an eval suite: prompts × modes × models, with assertions">
            Evals
          </button>
          <button type="button" onClick={() => setComparing(true)} title="Run one prompt in code mode and classic mode side by side">
            Compare modes
          </button>
          {shareHidden && shareLink.state.status === "open" && (
            <button type="button" onClick={() => setShareHidden(false)} title="Shows the opened link's banner again: its servers to add and its recorded runs">
              Shared link
            </button>
          )}
          <button type="button" onClick={() => setSharing(true)}>
            Share
          </button>
          <ClearSessionButton
            session={chat}
            runs={debug.history.history.length}
            codeHistory={bridge.history.length}
            droppedRuns={saved.droppedRuns}
            onClear={() => void saved.clear()}
          />
        </header>
        <ChannelBanner />
        {!shareHidden && (
          <ShareBanner
            link={shareLink}
            registered={mcp.servers}
            onAddServer={(input) => mcp.registry?.add(input)}
            onReplayRun={replaySharedRun}
            onHide={() => setShareHidden(true)}
          />
        )}
        <ServerRequestDialog broker={mcp.serverRequests} sampler={sampler} />
        {evaluating && (
          <EvalsDialog
            evals={evals}
            approvals={debug.approvals}
            onClose={() => {
              evals.stop();
              setEvaluating(false);
            }}
          />
        )}
        {comparing && (
          <CompareDialog
            compare={compare}
            // Read when the dialog opens: the page does not follow the conversation as it streams.
            initialPrompt={lastUserMessage(chat.snapshot().messages)?.text ?? ""}
            approvals={debug.approvals}
            onClose={() => {
              compare.stop();
              setComparing(false);
            }}
          />
        )}
        {sharing && (
          <ShareDialog
            inputs={{
              servers: mcp.servers,
              toolSnapshots: mcp.serverTools,
              code: editor.code,
              systemPrompt: catalog.systemPrompt(),
              limits: limits.overrides,
              messages: chat.snapshot().messages,
              model: { provider: chatModel.provider, id: chatModel.modelId },
            }}
            runs={debug.history.history}
            onOpenFile={shareLink.openFile}
            onClose={() => setSharing(false)}
          />
        )}
        <main className="app-main">
          <Group orientation="horizontal" defaultLayout={columns.defaultLayout} onLayoutChanged={columns.onLayoutChanged}>
            <Panel id="servers" defaultSize="23%" minSize="12%">
              <ServersPanel
                mcp={mcp}
                catalog={catalog}
                onSaveCase={(server, tool, args) => evals.addCase(caseFromTestCall(server, tool, args))}
                onUseInChat={(text) => chatDraft.insert(text)}
                onExplore={(name) => {
                  const code = exploreProgram(
                    mcp.serverTools,
                    mcp.serverTools.findIndex((s) => s.name === name),
                  );
                  if (code !== undefined) bridge.putCode(code, `explore-${name}`);
                }}
              />
            </Panel>
            <Separator className="separator" />
            <Panel id="chat" defaultSize="25%" minSize="15%">
              <ChatPanel
                session={chat}
                model={chatModel}
                hasDestructiveTools={bridge.hasDestructiveTools}
                connectedServers={bridge.connectedServers}
                draft={chatDraft}
              />
            </Panel>
            <Separator className="separator" />
            <Panel id="work" defaultSize="52%" minSize="25%">
              <Group orientation="vertical" defaultLayout={rows.defaultLayout} onLayoutChanged={rows.onLayoutChanged}>
                <Panel id="editor" defaultSize="58%" minSize="15%">
                  <EditorPanel
                    code={editor.code}
                    onCodeChange={editor.setCode}
                    onReset={editor.reset}
                    running={sandbox.running}
                    onRun={bridge.pending ? () => bridge.approve({ askEachDestructive: chatModel.settings.askEachDestructive }) : runFromEditor}
                    pending={bridge.pending}
                    onSkip={bridge.skip}
                    history={bridge.history}
                    editorHandle={editorHandle}
                    limits={limits}
                    onStop={sandbox.stop}
                    // A marker belongs to the code that failed: editing the code clears it.
                    errorMarker={sandbox.ranCode === editor.code ? sandbox.errorMarker : undefined}
                    declarations={catalog.declarations.text}
                    loadEditor={sandbox.ready}
                  />
                </Panel>
                <Separator className="separator separator-h" />
                <Panel id="output" defaultSize="42%" minSize="10%">
                  <OutputPanel
                    live={sandbox.live}
                    debug={debug}
                    onUseCode={editor.setCode}
                    onSendToChat={sendManualRun}
                    onRevealLine={revealLine}
                    stepWaiting={bridge.pending !== undefined}
                  />
                </Panel>
              </Group>
            </Panel>
          </Group>
        </main>
      </div>
    </WaitingContext>
  );
}

const NO_ASKS: readonly PendingServerRequest[] = [];

/** Clears the saved session; it follows the message count itself, so the page need not. */
function ClearSessionButton(props: { session: ChatSession; runs: number; codeHistory: number; droppedRuns: number; onClear: () => void }) {
  const messages = useStore(props.session, (state) => state.messages.length, { fallback: 0 });
  const counts = { messages, runs: props.runs, codeHistory: props.codeHistory };
  const dropped = props.droppedRuns > 0 ? ` (${props.droppedRuns} older runs left out to stay under the size cap)` : "";
  return (
    <ConfirmButton
      label="Clear session"
      title={`This browser keeps the session across reloads: ${describeSession(counts)}${dropped}`}
      question={`Clear ${describeSession(counts)}? Servers, code and keys stay.`}
      confirmLabel="Clear"
      disabled={counts.messages + counts.runs + counts.codeHistory === 0}
      onConfirm={props.onClear}
    />
  );
}

/** The tab's title carries a marker while something waits for the person, so it shows from another tab too. */
function useWaitingTitle(waiting: number): void {
  useEffect(() => {
    const base = document.title.replace(/^● Waiting for you · /, "");
    document.title = waiting > 0 ? `● Waiting for you · ${base}` : base;
  }, [waiting]);
}

type LayoutStorage = Pick<Storage, "getItem" | "setItem">;

/** localStorage when it works; otherwise nothing is saved (lib/storage/browser/browser-storage.ts). */
const safeStorage = (): LayoutStorage => browserStorageOrNone();
