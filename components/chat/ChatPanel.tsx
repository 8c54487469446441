"use client";

import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { useEffect, useRef, useState } from "react";
import type { UseChatModelResult } from "@/components/hooks/use-chat-model";
import { useStore } from "@/components/hooks/use-store";
import { countRender } from "@/components/dev/render-probe";
import { chatBusy, EMPTY_CHAT, type ChatSession } from "@/lib/model/chat-session";
import { providerInfo } from "@/lib/model/providers";
import { TOOL_MODES, type ToolMode } from "@/lib/model/tool-handler";
import { ChatComposer } from "./ChatComposer";
import type { ChatDraft } from "./chat-draft";
import { ChatEmptyState } from "./ChatEmptyState";
import { ChatMessage } from "./ChatMessage";
import { ChatSettings } from "./ChatSettings";
import { SystemPromptEditor } from "./SystemPromptEditor";
import styles from "./ChatPanel.module.css";
import { Badge } from "@/components/ui/Badge";

/** What the page wires into the chat: its one session and model choice, both created at the page level. */

const MODE_BUTTONS: Record<ToolMode, string> = { code: "Code", classic: "Classic", "classic-search": "Classic + search" };
const MODE_TITLES: Record<ToolMode, string> = {
  code: "Code mode: the model writes one program that calls the tools",
  classic: "Classic tool calling: every MCP tool offered as a tool, one model step per round",
  "classic-search": "Classic tool calling with tool search: the model gets search_tools, and the tools a search finds load for its next steps",
};

export interface ChatPanelProps {
  /** The page's chat session: this panel subscribes to all of it. */
  session: ChatSession;
  model: UseChatModelResult;
  /** A connected server has destructive tools (step mode defaults to on). */
  hasDestructiveTools: boolean;
  /** Names of the connected servers, to mark example prompts whose server is missing. */
  connectedServers?: readonly string[];
  /** Names of the servers still connecting (ChatEmptyState). */
  connectingServers?: readonly string[];
  /** Opens a tool call's run (output panel, timeline). */
  onShowRun?: (toolCallId: string) => void;
  /** Text the page inserts into the message box. */
  draft?: ChatDraft;
}

/** The chat panel: code-mode conversation with a model, settings, system prompt and request inspector. */
export function ChatPanel(props: ChatPanelProps) {
  countRender("chat");
  const { session } = props;
  const state = useStore(session, undefined, { fallback: EMPTY_CHAT });
  const busy = chatBusy(state);
  const { settings, keys, update, setKey, forgetKeys, serverKeys, access, provider, modelId, stepMode, systemPrompt } = props.model;
  const actions = useActions(session);
  const [open, setOpen] = useState<"settings" | "prompt" | null>(null);
  const toggle = (which: "settings" | "prompt") => setOpen((current) => (current === which ? null : which));

  // Follow the conversation while it grows, unless the person scrolled up to read.
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    // The empty state is read from its top (its introduction); only a conversation follows its end.
    if (el && state.messages.length === 0) el.scrollTop = 0;
    else if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [state.messages, state.error]);

  const lastUserId = state.messages.findLast((m) => m.role === "user")?.id;
  const badge = provider === "demo" ? "demo model" : `${providerInfo(provider).label} · ${modelId}`;
  const badgeTitle =
    provider === "demo" ? "The offline demo model: it answers its example prompts with scripted programs; no key needed" : `Model in use: ${badge}`;

  return (
    <section className="panel" aria-label="Chat">
      <div className="panel-header">
        <h2>Chat</h2>
        <Badge mono className={styles.model} title={badgeTitle} data-testid="chat-model">
          {badge}
        </Badge>
        {stepMode ? <Badge tone="warn">step mode</Badge> : null}
        <div className={styles.modeSwitch} role="radiogroup" aria-label="Tool mode">
          {TOOL_MODES.map((mode) => (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={settings.toolMode === mode}
              title={MODE_TITLES[mode]}
              onClick={() => update({ toolMode: mode })}
            >
              {MODE_BUTTONS[mode]}
            </button>
          ))}
        </div>
        <span className="spacer" />
        <button
          type="button"
          aria-pressed={open === "prompt"}
          onClick={() => toggle("prompt")}
          aria-label={`System prompt${systemPrompt.edited ? " (edited)" : ""}`}
          title="The system prompt the model gets: the rules and the typed API, editable with versions"
        >
          Prompt{systemPrompt.edited ? " *" : ""}
        </button>
        <button type="button" aria-pressed={open === "settings"} onClick={() => toggle("settings")}>
          Settings
        </button>
        <ConfirmButton
          label="Clear"
          question={`Clear ${state.messages.length === 1 ? "the message" : `all ${state.messages.length} messages`}?`}
          onConfirm={actions.clear}
          disabled={state.messages.length === 0 && !busy}
        />
      </div>
      {open === "settings" ? (
        <ChatSettings
          settings={settings}
          keys={keys}
          serverKeys={serverKeys}
          access={access}
          provider={provider}
          modelId={modelId}
          stepMode={stepMode}
          hasDestructiveTools={props.hasDestructiveTools}
          modeWhy={props.model.modeWhy}
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
        {state.messages.length === 0 ? (
          <ChatEmptyState
            onPick={actions.send}
            usingDemo={provider === "demo"}
            {...(props.connectedServers ? { connectedServers: props.connectedServers } : {})}
            {...(props.connectingServers ? { connectingServers: props.connectingServers } : {})}
          />
        ) : (
          state.messages.map((message) => (
            <ChatMessage
              key={message.id}
              message={message}
              activity={state.activity}
              steps={state.inspector[message.id] ?? []}
              stop={state.stops[message.id]}
              {...(message.id === lastUserId ? { onEdit: actions.editLast } : {})}
              {...(props.onShowRun ? { onShowRun: props.onShowRun } : {})}
            />
          ))
        )}
        {state.status === "submitted" ? (
          <p className={styles.waiting} role="status">
            Waiting for the model…
          </p>
        ) : null}
        {state.error !== undefined ? (
          <div className={styles.error} role="alert">
            <p>{state.error}</p>
            <button type="button" onClick={actions.retry}>
              Retry
            </button>
          </div>
        ) : null}
      </div>
      <ChatComposer busy={busy} onSend={actions.send} onStop={actions.stop} {...(props.draft ? { draft: props.draft } : {})} />
    </section>
  );
}

/** The session's commands as event handlers (their promises settle in the session's own state). */
function useActions(session: ChatSession) {
  const [actions] = useState(() => ({
    send: (text: string) => void session.send(text),
    stop: () => void session.stop(),
    retry: () => void session.retry(),
    editLast: (text: string) => void session.editLast(text),
    clear: () => void session.clear(),
  }));
  return actions;
}
