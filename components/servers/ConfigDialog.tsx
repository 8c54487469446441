"use client";

import { useState } from "react";
import type { ImportedCommand } from "@/lib/mcp/registry";
import type { ServerActions } from "@/lib/playground/server-actions";
import { escapeHidden } from "@/lib/text/hidden-characters";
import styles from "./Servers.module.css";
import { messageOf } from "@/lib/text/error-message";

/** Import servers from an `mcpServers` JSON file (paste or file) and export them, with or without secrets. */
export function ConfigDialog({ actions, onClose }: { actions: ServerActions; onClose: () => void }) {
  const [text, setText] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [omitSecrets, setOmitSecrets] = useState(true);
  const [awaiting, setAwaiting] = useState<readonly ImportedCommand[]>([]);
  const exported = actions.exportConfig({ omitSecrets, baseUrl: window.location.origin });
  const exportText = JSON.stringify(exported.config, null, 2);

  const importText = (source: string) => {
    let json: unknown;
    try {
      json = JSON.parse(source);
    } catch (error) {
      setMessage({ ok: false, text: `Not JSON: ${messageOf(error)}` });
      return;
    }
    const outcome = actions.importConfig(json);
    if (!outcome.ok) return setMessage({ ok: false, text: outcome.errors.join("\n") });
    const parts = [
      outcome.added.length ? `added ${outcome.added.join(", ")}` : "",
      outcome.replaced.length ? `replaced ${outcome.replaced.join(", ")}` : "",
      ...outcome.warnings,
    ].filter(Boolean);
    setMessage({ ok: true, text: parts.join("\n") || "Nothing to import." });
    setAwaiting(outcome.awaitingStart);
  };
  const start = (command: ImportedCommand) => {
    actions.setEnabled(command.id, true);
    setAwaiting((list) => list.filter((c) => c.id !== command.id));
  };
  const startAll = () => {
    for (const command of awaiting) actions.setEnabled(command.id, true);
    setAwaiting([]);
  };

  return (
    <div className={styles.configDialog} role="dialog" aria-label="Import and export servers">
      <h3>Import</h3>
      <p className="muted small">
        Paste an <code>mcp.json</code> / <code>claude_desktop_config.json</code> (<code>{'{ "mcpServers": { … } }'}</code>) or choose a file. Servers with the
        same name are replaced.
      </p>
      <textarea
        rows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Config to import"
        spellCheck={false}
        placeholder='{ "mcpServers": { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } } }'
      />
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => importText(text)} disabled={!text.trim()}>
          Import
        </button>
        <label className="file-button">
          Choose file…
          <input
            type="file"
            accept="application/json,.json"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) file.text().then(importText, (error: unknown) => setMessage({ ok: false, text: String(error) }));
            }}
          />
        </label>
      </div>
      {message && (
        <div className={message.ok ? "ok-box" : "error-box"} role="status">
          {message.text}
        </div>
      )}
      {awaiting.length > 0 && (
        <div className="warn-box" role="group" aria-label="Local commands to review">
          <p className="small">
            This file runs {awaiting.length === 1 ? "a command" : `${awaiting.length} commands`} on your computer. They are added switched off: read each one
            and start only what you trust.
          </p>
          <ul className={styles.commandList}>
            {awaiting.map((command) => (
              <li key={command.id}>
                <strong>{command.name}</strong> <code>{escapeHidden([command.command, ...command.args].join(" "))}</code>{" "}
                <button type="button" onClick={() => start(command)} aria-label={`Start ${command.name}`}>
                  Start
                </button>
                {command.env.length > 0 && (
                  <dl className="small" aria-label={`Environment of ${command.name}`}>
                    {command.env.map(({ key, shown }) => (
                      <div key={key}>
                        <dt>
                          <code>{escapeHidden(key)}</code>
                        </dt>
                        <dd>
                          <code>{escapeHidden(shown)}</code>
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            ))}
          </ul>
          {awaiting.length > 1 && (
            <button type="button" onClick={startAll}>
              Start all {awaiting.length}
            </button>
          )}
        </div>
      )}
      <h3>Export</h3>
      <label className="check">
        <input type="checkbox" checked={omitSecrets} onChange={(e) => setOmitSecrets(e.target.checked)} /> Leave out secrets (headers, env values)
      </label>
      {omitSecrets && exported.omitted.length > 0 && <p className="muted small">Left out: {exported.omitted.join(", ")}</p>}
      <textarea rows={6} readOnly value={exportText} aria-label="Exported config" spellCheck={false} />
      <div className="toolbar">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(exportText)}>
          Copy
        </button>
        <a className="button" download="mcp.json" href={`data:application/json;charset=utf-8,${encodeURIComponent(exportText)}`}>
          Download mcp.json
        </a>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
