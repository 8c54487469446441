"use client";

import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { useState } from "react";
import type { UseMcpResult } from "@/components/hooks/use-mcp";
import { ServerCard } from "./ServerCard";
import { ServerForm } from "./ServerForm";
import { ConfigDialog } from "./ConfigDialog";
import styles from "./Servers.module.css";

/** Registered servers with their status, plus add, import/export and forget-secrets. */
export function ServerList({
  mcp,
  onExplore,
  onUseInChat,
}: {
  mcp: UseMcpResult;
  onExplore?: (serverName: string) => void;
  onUseInChat?: (text: string) => void;
}) {
  // "adding" or the id of the server being edited.
  const [editing, setEditing] = useState<{ kind: "adding" } | { kind: "editing"; id: string } | undefined>(undefined);
  const [configOpen, setConfigOpen] = useState(false);
  const { actions, extrasFor, stderrOf, oauth, logs, roots, servers, statuses, publishedSkills, tasks } = mcp;
  const problems = actions.problems();
  return (
    <div className={styles.serverList}>
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => setEditing({ kind: "adding" })}>
          Add server
        </button>
        <button type="button" onClick={() => setConfigOpen(true)}>
          Import / export
        </button>
      </div>
      {problems.length > 0 && (
        <div className="error-box" role="alert">
          {problems.join("\n")}
        </div>
      )}
      {configOpen && <ConfigDialog actions={actions} onClose={() => setConfigOpen(false)} />}
      {editing?.kind === "adding" && <ServerForm actions={actions} onDone={() => setEditing(undefined)} />}
      {servers.length === 0 && editing?.kind !== "adding" && (
        <div className="empty-state">
          <h3>No servers registered</h3>
          <p>Add an MCP server by URL (Streamable HTTP or SSE) or a local command (stdio), or import an mcp.json file.</p>
          <button type="button" onClick={() => actions.restoreDemoServers()}>
            Restore the demo servers
          </button>
        </div>
      )}
      <ul className="stack-list" aria-label="Registered servers">
        {servers.map((server) =>
          editing?.kind === "editing" && editing.id === server.id ? (
            <li key={server.id}>
              <ServerForm actions={actions} server={server} onDone={() => setEditing(undefined)} />
            </li>
          ) : (
            <ServerCard
              key={server.id}
              server={server}
              status={statuses[server.id]}
              onEdit={() => setEditing({ kind: "editing", id: server.id })}
              onRemove={() => actions.remove(server.id)}
              onToggle={(on) => actions.setEnabled(server.id, on)}
              onReconnect={() => actions.reconnect(server.id)}
              {...(onExplore ? { onExplore: () => onExplore(server.name) } : {})}
              logs={logs}
              publishedSkills={publishedSkills}
              tasks={tasks}
              extras={extrasFor(server.id)}
              stderr={stderrOf(server.id)}
              {...(onUseInChat ? { onUseInChat } : {})}
              {...(roots ? { roots } : {})}
              onSetLogLevel={(level) => actions.setLogLevel(server.id, server.name, level)}
              {...(oauth ? { oauth, onSignIn: (restart: boolean) => actions.signIn(server.id, restart) } : {})}
            />
          ),
        )}
      </ul>
      <div className={`toolbar ${styles.mutedActions}`}>
        <button type="button" onClick={() => actions.restoreDemoServers()}>
          Restore demo servers
        </button>
        <ConfirmButton
          label="Forget secrets"
          question="Forget every header, token and env value stored in this browser?"
          confirmLabel="Forget them"
          title="Headers, tokens and env values are kept in this browser's localStorage only"
          onConfirm={() => actions.forgetSecrets()}
        />
      </div>
      <p className="muted small">
        Servers are kept in this browser&apos;s localStorage; headers, tokens and env values under a separate key that &ldquo;Forget secrets&rdquo; wipes. They
        never enter the sandbox, a share link or a log.
      </p>
    </div>
  );
}
