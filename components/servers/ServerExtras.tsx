"use client";

import { useEffect, useState } from "react";
import type { Prompt, Resource } from "@modelcontextprotocol/client";
import type { ExtrasShown, ServerExtrasState, ServerExtrasStore } from "@/lib/mcp/server-extras";
import { useStore } from "@/components/hooks/use-store";
import styles from "./Servers.module.css";

const NOTHING: ServerExtrasState = { templates: [], canSubscribe: false, subscribed: [] };

/** A server's resources (read, templates, subscribe) and prompts (get with arguments), and what came back, as text. */
export function ServerExtras({
  serverName,
  extras,
  prompts,
  resources,
  onUseInChat,
}: {
  serverName: string;
  /** Puts a prompt's text into the chat's message box. */
  onUseInChat?: (text: string) => void;
  /** The page's store of this server's resources and prompts (lib/mcp/server-extras.ts). */
  extras: ServerExtrasStore;
  prompts: readonly Prompt[];
  resources: readonly Resource[];
}) {
  const { templates, canSubscribe, subscribed, shown } = useStore(extras, undefined, { fallback: NOTHING });
  const [uri, setUri] = useState("");
  const [args, setArgs] = useState<Record<string, Record<string, string>>>({});

  // Shown only while the server is connected: each render makes sure the store follows the connection now.
  useEffect(() => {
    void extras.open();
  });
  useEffect(() => () => void extras.close(), [extras]);

  if (prompts.length === 0 && resources.length === 0 && templates.length === 0) return null;

  return (
    <details className={styles.serverExtras}>
      <summary>Prompts and resources</summary>
      {resources.length > 0 && (
        <ul aria-label={`Resources of ${serverName}`}>
          {resources.map((r) => (
            <li key={r.uri}>
              <code>{r.uri}</code>
              {r.mimeType && <span> [{r.mimeType}]</span>}
              {(r.title ?? r.name) && <span> — {r.title ?? r.name}</span>}{" "}
              <span className={styles.resourceActions}>
                <button type="button" className="link" onClick={() => void extras.read(r.uri)}>
                  Read
                </button>
                {canSubscribe && (
                  <button type="button" className="link" onClick={() => void extras.toggleSubscription(r.uri)}>
                    {subscribed.includes(r.uri) ? "Unsubscribe" : "Subscribe"}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {(templates.length > 0 || resources.length > 0) && (
        <form
          className={styles.oauthActions}
          onSubmit={(event) => {
            event.preventDefault();
            if (uri.trim()) void extras.read(uri.trim());
          }}
        >
          <input
            aria-label={`Resource URI of ${serverName}`}
            placeholder={templates[0]?.uriTemplate ?? "resource URI"}
            value={uri}
            onChange={(e) => setUri(e.target.value)}
            list={`templates-${serverName}`}
          />
          <datalist id={`templates-${serverName}`}>
            {templates.map((t) => (
              <option key={t.uriTemplate} value={t.uriTemplate}>
                {t.title ?? t.name}
              </option>
            ))}
          </datalist>
          <button type="submit">Read</button>
        </form>
      )}
      {templates.length > 0 && (
        <div className="muted small">
          Templates: {templates.map((t) => t.uriTemplate).join(", ")} (fill the {"{…}"} parts in the URI box). From code:{" "}
          <code>
            {serverName}.$readResource({"{ uri }"})
          </code>
          .
        </div>
      )}
      {prompts.length > 0 && (
        <ul aria-label={`Prompts of ${serverName}`}>
          {prompts.map((p) => (
            <li key={p.name}>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  void extras.getPrompt(p.name, args[p.name] ?? {});
                }}
              >
                <code>{p.name}</code>
                {p.description && <span> — {p.description}</span>}
                {(p.arguments ?? []).map((a) => (
                  <input
                    key={a.name}
                    aria-label={`${p.name} ${a.name}`}
                    placeholder={`${a.name}${a.required ? " *" : ""}`}
                    required={a.required}
                    value={args[p.name]?.[a.name] ?? ""}
                    onChange={(e) => setArgs({ ...args, [p.name]: { ...args[p.name], [a.name]: e.target.value } })}
                  />
                ))}{" "}
                <button type="submit" className="link">
                  Get
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {shown && <ShownResult shown={shown} {...(onUseInChat ? { onUseInChat } : {})} />}
    </details>
  );
}

function ShownResult({ shown, onUseInChat }: { shown: ExtrasShown; onUseInChat?: (text: string) => void }) {
  if (shown.kind === "error") {
    return (
      <div className={styles.stepError} role="alert">
        {shown.text}
      </div>
    );
  }
  // Text only: whatever the server sent is never rendered as markup.
  const text =
    shown.kind === "resource"
      ? shown.result.contents
          .map((c) =>
            "text" in c && typeof c.text === "string"
              ? c.text
              : `[${c.mimeType ?? "binary"}, ${"blob" in c && typeof c.blob === "string" ? Math.round((c.blob.length * 3) / 4) : 0} bytes]`,
          )
          .join("\n\n")
      : shown.result.messages.map((m) => `${m.role}: ${m.content.type === "text" ? m.content.text : `[${m.content.type}]`}`).join("\n\n");
  return (
    <div aria-label={shown.kind === "resource" ? `Contents of ${shown.uri}` : `Prompt ${shown.name}`} role="region">
      <div className="muted small">
        {shown.kind === "resource"
          ? `${shown.uri}${shown.updatedAt ? ` · updated ${new Date(shown.updatedAt).toLocaleTimeString()}` : ""}`
          : `prompts/get ${shown.name}`}{" "}
        <button type="button" className="link" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
        {shown.kind === "prompt" && onUseInChat && (
          <button
            type="button"
            className="link"
            onClick={() =>
              onUseInChat(
                shown.result.messages
                  .filter((m) => m.role === "user" && m.content.type === "text")
                  .map((m) => (m.content.type === "text" ? m.content.text : ""))
                  .join("\n\n"),
              )
            }
          >
            Use in chat
          </button>
        )}
      </div>
      <pre className={styles.stepDetail}>{text}</pre>
    </div>
  );
}
