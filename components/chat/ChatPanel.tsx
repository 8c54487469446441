"use client";

import { useEffect, useRef, useState } from "react";
import { useChatProviders } from "@/components/hooks/use-chat-providers";
import { useChatSettings } from "@/components/hooks/use-chat-settings";
import { useChatSystemPrompt } from "@/components/hooks/use-chat-system-prompt";
import { useCodeModeChat } from "@/components/hooks/use-code-mode-chat";
import { buildRequestExtras, modelIdFor } from "@/lib/model/chat-request";
import { effectiveProvider, effectiveStepMode, usableServerKeys } from "@/lib/model/chat-settings";
import { providerInfo } from "@/lib/model/providers";
import type { CodeApprovalDecision } from "@/lib/model/tool-handler";
import { toRestorableMessages } from "@/lib/model/restore-messages";
import type { RunResult } from "@/lib/sandbox/types";
import { ChatComposer } from "./ChatComposer";
import { ChatEmptyState } from "./ChatEmptyState";
import { ChatMessage } from "./ChatMessage";
import { ChatSettings } from "./ChatSettings";
import { SystemPromptEditor } from "./SystemPromptEditor";
import styles from "./ChatPanel.module.css";

/** What the page wires into the chat. */
export interface ChatPanelProps {
  /** The generated system prompt with every declaration (buildSystemPrompt(declarations)). */
  defaultSystemPrompt: string;
  /** The generated system prompt for search mode (buildSystemPrompt(declarations, "search")). */
  searchPrompt: string;
  /** Runs the model's program in the sandbox against the connected servers. Should resolve, not throw. */
  runCode: (code: string, toolCallId: string) => Promise<RunResult>;
  /** Declarations of the best matches for a query (search mode): ToolSearch.search(query, limit).text. */
  searchTools: (query: string, limit: number) => string;
  /** Step mode: show the code in the editor and resolve when the person runs (maybe edited) code or skips it. */
  awaitApproval: (code: string, toolCallId: string) => Promise<CodeApprovalDecision>;
  /** A connected server has destructive tools: step mode defaults to on. */
  hasDestructiveTools: boolean;
  /** Opens a tool call's run (output panel, timeline). */
  onShowRun?: (toolCallId: string) => void;
  /** Stop and Clear call this while the chat's code runs or waits: cancel the run and resolve any waiting approval (as a skip). */
  stopRun?: () => void;
  /** Names of the connected servers, to mark example prompts whose server is missing. */
  connectedServers?: readonly string[];
  /** A conversation to put back (from a shared link); applied once per id, nothing is sent or run. */
  restore?: { id: number; messages: readonly unknown[] } | undefined;
  /** A message the page asks the chat to send (a manual run's result); sent once per id. */
  outbox?: { id: number; text: string } | undefined;
  /** Told whenever the conversation or the model changes (the Share dialog reads it). */
  onConversation?: (snapshot: ConversationSnapshot) => void;
}

/** What a share needs of the chat: its messages and which model (never a key). */
export interface ConversationSnapshot {
  messages: readonly unknown[];
  model: { provider: string; id: string };
}

/** The chat panel: code-mode conversation with a model, settings, system prompt and request inspector. */
export function ChatPanel(props: ChatPanelProps) {
  const { settings, keys, update, setKey, forgetKeys } = useChatSettings();
  const providers = useChatProviders();
  const serverKeys = usableServerKeys(providers.serverKeys, providers.access, keys);
  const mode = settings.searchMode ? "search" : "declarations";
  const systemPrompt = useChatSystemPrompt({ declarations: props.defaultSystemPrompt, search: props.searchPrompt }, mode);
  const provider = effectiveProvider(settings, serverKeys, keys);
  const modelId = modelIdFor(settings, provider);
  const stepMode = effectiveStepMode(settings, props.hasDestructiveTools);
  const chat = useCodeModeChat({
    host: {
      runCode: props.runCode,
      searchTools: props.searchTools,
      awaitApproval: props.awaitApproval,
      ...(props.stopRun ? { stopRun: props.stopRun } : {}),
    },
    requestExtras: () => buildRequestExtras({ settings, keys, serverKeys, instructions: systemPrompt.prompt }),
    policy: { maxSteps: settings.maxSteps, returnDirectly: settings.returnDirectly },
    stepMode,
  });
  const [open, setOpen] = useState<"settings" | "prompt" | null>(null);
  const toggle = (which: "settings" | "prompt") => setOpen((current) => (current === which ? null : which));

  // Follow the conversation while it grows, unless the person scrolled up to read.
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [chat.messages, chat.error]);

  const { onConversation, outbox, restore } = props;
  const restoredId = useRef(0);
  const { restore: restoreChat } = chat;
  useEffect(() => {
    if (!restore || restore.id === restoredId.current) return;
    restoredId.current = restore.id;
    restoreChat(toRestorableMessages(restore.messages));
  }, [restore, restoreChat]);
  const sentOutbox = useRef(0);
  const { send } = chat;
  useEffect(() => {
    if (!outbox || outbox.id === sentOutbox.current) return;
    sentOutbox.current = outbox.id;
    send(outbox.text);
  }, [outbox, send]);
  useEffect(() => {
    onConversation?.({ messages: chat.messages, model: { provider, id: modelId } });
  }, [onConversation, chat.messages, provider, modelId]);

  const lastUserId = chat.messages.findLast((m) => m.role === "user")?.id;
  const badge = provider === "demo" ? "demo model (offline)" : `${providerInfo(provider).label} · ${modelId}`;

  return (
    <section className="panel" aria-label="Chat">
      <div className="panel-header">
        <h2>Chat</h2>
        <span className={styles.badge} title="Model in use" data-testid="chat-model">
          {badge}
        </span>
        {stepMode ? <span className={styles.flag}>step mode</span> : null}
        <span className="spacer" />
        <button type="button" aria-pressed={open === "prompt"} onClick={() => toggle("prompt")}>
          System prompt{systemPrompt.edited ? " *" : ""}
        </button>
        <button type="button" aria-pressed={open === "settings"} onClick={() => toggle("settings")}>
          Settings
        </button>
        <button type="button" onClick={chat.clear} disabled={chat.messages.length === 0 && !chat.busy}>
          Clear
        </button>
      </div>
      {open === "settings" ? (
        <ChatSettings
          settings={settings}
          keys={keys}
          serverKeys={serverKeys}
          access={providers.access}
          provider={provider}
          modelId={modelId}
          stepMode={stepMode}
          hasDestructiveTools={props.hasDestructiveTools}
          update={update}
          setKey={setKey}
          forgetKeys={forgetKeys}
        />
      ) : null}
      {open === "prompt" ? <SystemPromptEditor prompt={systemPrompt} /> : null}
      <div
        className={`panel-body ${styles.messages}`}
        ref={scroller}
        role="log"
        aria-label="Conversation"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {chat.messages.length === 0 ? (
          <ChatEmptyState
            onPick={chat.send}
            usingDemo={provider === "demo"}
            {...(props.connectedServers ? { connectedServers: props.connectedServers } : {})}
          />
        ) : (
          chat.messages.map((message) => (
            <ChatMessage
              key={message.id}
              message={message}
              activity={chat.activity}
              steps={chat.inspector[message.id] ?? []}
              stop={chat.stops[message.id]}
              {...(message.id === lastUserId ? { onEdit: chat.editLast } : {})}
              {...(props.onShowRun ? { onShowRun: props.onShowRun } : {})}
            />
          ))
        )}
        {chat.status === "submitted" ? (
          <p className={styles.waiting} role="status">
            Waiting for the model…
          </p>
        ) : null}
        {chat.error !== undefined ? (
          <div className={styles.error} role="alert">
            <p>{chat.error}</p>
            <button type="button" onClick={chat.retry}>
              Retry
            </button>
          </div>
        ) : null}
      </div>
      <ChatComposer busy={chat.busy} onSend={chat.send} onStop={chat.stop} />
    </section>
  );
}
