"use client";

import { browserStorageOrNone } from "@/lib/storage/browser/browser-storage";
import dynamic from "next/dynamic";
import { useCallback, useRef, useState } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import type { EditorHandle } from "@/components/editor/CodeEditor";
import { ChatDraft } from "@/components/chat/chat-draft";
import type { ShareLinkSnapshot } from "@/lib/share/browser/share-link-store";
import { useStore } from "@/components/hooks/use-store";
import { lastUserMessage } from "@/lib/model/conversation";
import { ChannelBanner } from "./ChannelBanner";
import { PageProvider, usePage } from "./page-context";
import {
  ChatSlot,
  ClearSessionSlot,
  EditorSlot,
  OutputSlot,
  SandboxStatus,
  SaveSkillSlot,
  ServerAsksSlot,
  ServersSlot,
  ShareBannerSlot,
  ShareDialogSlot,
  WaitingSlot,
} from "./slots";

// The dialogs load when first opened, not with the page (docs/speed.md, "The page's start").
const EvalsDialog = dynamic(() => import("@/components/evals/EvalsDialog").then((m) => m.EvalsDialog));
const CompareDialog = dynamic(() => import("@/components/compare/CompareDialog").then((m) => m.CompareDialog));

/** The whole playground: the page's stores (lib/playground), then the layout. */
export function Playground() {
  return (
    <PageProvider>
      <PlaygroundLayout />
    </PageProvider>
  );
}

type Dialog = "evals" | "compare" | "share" | undefined;

const NO_SHARE: ShareLinkSnapshot = { state: { status: "none" }, hidden: false };

/** Header and four resizable panels (Servers, Chat, Editor, Output); it holds which dialog is open, and each panel subscribes to its own state (./slots.tsx). */
function PlaygroundLayout() {
  const { playground } = usePage();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [chatDraft] = useState(() => new ChatDraft());
  const editorHandle = useRef<EditorHandle | null>(null);
  const revealLine = useCallback((line: number) => editorHandle.current?.revealLine(line), []);
  // The share the page opened (lib/share/browser/share-link-store.ts): its parts are in the page; nothing runs by itself.
  const { shareLink } = usePage();
  const { state: shared, hidden: shareHidden } = useStore(shareLink, undefined, { fallback: NO_SHARE });
  // Layouts persist in localStorage so a reload keeps the person's arrangement.
  const columns = useDefaultLayout({ id: "cmp-columns", storage: browserStorageOrNone() });
  const rows = useDefaultLayout({ id: "cmp-rows", storage: browserStorageOrNone() });
  const close = () => setDialog(undefined);

  return (
    <WaitingSlot>
      <div className="app">
        <header className="app-header">
          <h1>Code Mode Playground</h1>
          <span className="tagline">The model writes one program; it runs in a QuickJS sandbox; every tool call lands on a timeline.</span>
          <span className="spacer" />
          <SandboxStatus />
          <button type="button" onClick={() => setDialog("evals")} title="Run an eval suite: prompts × modes × models, with assertions">
            Evals
          </button>
          <button type="button" onClick={() => setDialog("compare")} title="Run one prompt in code mode and classic mode side by side">
            Compare modes
          </button>
          {shareHidden && shared.status === "open" && (
            <button
              type="button"
              onClick={() => shareLink.setHidden(false)}
              title="Shows the opened link's banner again: its servers to add and its recorded runs"
            >
              Shared link
            </button>
          )}
          <button type="button" onClick={() => setDialog("share")}>
            Share
          </button>
          <ClearSessionSlot />
        </header>
        <ChannelBanner />
        {!shareHidden && <ShareBannerSlot state={shared} onDismiss={shareLink.dismiss} onHide={() => shareLink.setHidden(true)} />}
        <ServerAsksSlot />
        <SaveSkillSlot />
        {dialog === "evals" && (
          <EvalsDialog
            onClose={() => {
              playground.evals.stop();
              close();
            }}
          />
        )}
        {dialog === "compare" && (
          <CompareDialog
            // Read when the dialog opens: the page does not follow the conversation as it streams.
            initialPrompt={lastUserMessage(playground.chat.snapshot().messages)?.text ?? ""}
            onClose={() => {
              playground.compare.stop();
              close();
            }}
          />
        )}
        {dialog === "share" && <ShareDialogSlot onOpenFile={(file) => shareLink.openFile(file)} onClose={close} />}
        <main className="app-main">
          <Group orientation="horizontal" defaultLayout={columns.defaultLayout} onLayoutChanged={columns.onLayoutChanged}>
            <Panel id="servers" defaultSize="23%" minSize="12%">
              <ServersSlot draft={chatDraft} />
            </Panel>
            <Separator className="separator" />
            <Panel id="chat" defaultSize="25%" minSize="15%">
              <ChatSlot draft={chatDraft} />
            </Panel>
            <Separator className="separator" />
            <Panel id="work" defaultSize="52%" minSize="25%">
              <Group orientation="vertical" defaultLayout={rows.defaultLayout} onLayoutChanged={rows.onLayoutChanged}>
                <Panel id="editor" defaultSize="58%" minSize="15%">
                  <EditorSlot editorHandle={editorHandle} />
                </Panel>
                <Separator className="separator separator-h" />
                <Panel id="output" defaultSize="42%" minSize="10%">
                  <OutputSlot onRevealLine={revealLine} />
                </Panel>
              </Group>
            </Panel>
          </Group>
        </main>
      </div>
    </WaitingSlot>
  );
}
