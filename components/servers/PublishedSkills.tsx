"use client";

import { useStore } from "@/components/hooks/use-store";
import type { PublishedSkillsStore, ServerSkills } from "@/lib/mcp/published-skills";
import { Badge } from "@/components/ui/Badge";
import styles from "./Servers.module.css";

/**
 * The skills a server publishes (MCP's Skills extension), on its card: listed when the person
 * opens the section, a SKILL.md shown as text once its size and digest match the listing, and
 * put into the chat's message box only when the person clicks (never sent, never run by itself).
 */
export function PublishedSkills({
  serverId,
  serverName,
  store,
  onUseInChat,
}: {
  serverId: string;
  serverName: string;
  store: PublishedSkillsStore;
  onUseInChat?: (text: string) => void;
}) {
  const state: ServerSkills | undefined = useStore(store, () => store.snapshot()[serverId], { fallback: undefined });
  const count = state?.state === "ready" ? ` · ${state.skills.length} published` : "";
  return (
    <details
      className={styles.serverExtras}
      aria-label={`Skills ${serverName} publishes`}
      onToggle={(event) => {
        if (event.currentTarget.open) void store.open(serverId);
      }}
    >
      <summary>Published skills{count}</summary>
      {state === undefined || state.state === "loading" ? <p className="muted">Listing the skills…</p> : null}
      {state?.state === "error" ? (
        <div className="error-box" role="alert">
          {state.error}
        </div>
      ) : null}
      {state?.state === "ready" ? (
        <>
          {state.skills.length === 0 ? <p className="muted">This server publishes no skills.</p> : null}
          {state.invalid > 0 ? <p className="muted">{state.invalid} more entries were malformed and are left out.</p> : null}
          <ul aria-label={`Published skills of ${serverName}`}>
            {state.skills.map((skill) => (
              <li key={skill.uri}>
                <b>{skill.name}</b> <span className="muted">{skill.description}</span>{" "}
                <button type="button" className="link" onClick={() => void store.show(serverId, skill.uri)}>
                  Show SKILL.md
                </button>
              </li>
            ))}
          </ul>
          {state.shown && "reading" in state.shown ? <p className="muted">Reading {state.shown.skillUri}…</p> : null}
          {state.shown && "error" in state.shown ? (
            <div className="error-box" role="alert">
              {state.shown.error}
            </div>
          ) : null}
          {state.shown && "file" in state.shown ? (
            <div aria-label={`${state.shown.file.uri} as text`}>
              <p className="muted small">
                {state.shown.file.uri}{" "}
                {state.shown.file.verified ? <Badge tone="ok">size and digest checked</Badge> : <Badge tone="warn">not listed: unchecked</Badge>}
              </p>
              <pre className={styles.skillText}>{state.shown.file.text}</pre>
              <div className="toolbar">
                {onUseInChat ? (
                  <button
                    type="button"
                    title="Puts the skill's text into the chat's message box; nothing is sent until you send it"
                    onClick={() => "file" in (state.shown ?? {}) && onUseInChat(shownText(state))}
                  >
                    Use in chat
                  </button>
                ) : null}
                <button type="button" onClick={() => store.hide(serverId)}>
                  Hide
                </button>
              </div>
            </div>
          ) : null}
        </>
      ) : null}
    </details>
  );
}

function shownText(state: ServerSkills): string {
  return state.state === "ready" && state.shown && "file" in state.shown ? state.shown.file.text : "";
}
