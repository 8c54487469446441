"use client";

import { formatDuration } from "@/lib/timeline/format";
import type { BrowserOAuth } from "@/lib/mcp/browser/browser-oauth";
import { useEffect, useState } from "react";
import type { RestartPlan, ServerStatus } from "@/lib/mcp/server-status";
import type { ServerConfig } from "@/lib/mcp/types";
import { escapeHidden } from "@/lib/text/hidden-characters";
import { plural } from "@/lib/text/display";
import { describeProtocol, FORCED_ERA_NOTE } from "@/lib/mcp/protocol-era";
import { Badge, toneOf } from "@/components/ui/Badge";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { OAuthPanel } from "./OAuthPanel";
import { ServerLogView } from "./ServerLogView";
import { RootsEditor } from "./RootsEditor";
import { ServerExtras } from "./ServerExtras";
import dynamic from "next/dynamic";
import type { ServerTasksStore } from "@/lib/mcp/server-tasks";
import type { PublishedSkillsStore } from "@/lib/mcp/published-skills";
import { StderrView } from "./StderrView";
import type { ServerExtrasStore } from "@/lib/mcp/server-extras";
import type { RootsStore } from "@/lib/mcp/roots";
import type { ServerLogStore } from "@/lib/mcp/server-logs";
import type { LoggingLevel } from "@modelcontextprotocol/client";
import styles from "./Servers.module.css";

// Shown only on servers that publish skills or ran tasks: they load then, not with the page (docs/speed.md, "The page's start").
const PublishedSkills = dynamic(() => import("./PublishedSkills").then((m) => m.PublishedSkills));
const ServerTasks = dynamic(() => import("./ServerTasks").then((m) => m.ServerTasks));

export interface ServerCardProps {
  server: ServerConfig;
  status: ServerStatus | undefined;
  onEdit: () => void;
  onRemove: () => void;
  onToggle: (enabled: boolean) => void;
  onReconnect: () => void;
  /** Connected servers: write a starter program that calls the read-only tools (no model, no key). */
  onExplore?: () => void;
  /** OAuth of HTTP servers: sign-in, the flow view, tokens. */
  oauth?: BrowserOAuth;
  /** Opens the sign-in popup (inside the click) and reconnects; `restart` forgets the old grant first. */
  onSignIn?: (restart: boolean) => void;
  /** The server's log messages, and how to ask it for another level. */
  logs?: ServerLogStore;
  onSetLogLevel?: (level: LoggingLevel) => Promise<void>;
  /** The directories the server is told about (MCP roots). */
  roots?: RootsStore;
  /** The skills servers publish, listed when the card's section opens. */
  publishedSkills?: PublishedSkillsStore;
  /** The tasks the page's calls started, listed under their server. */
  tasks?: ServerTasksStore;
  /** The server's resources and prompts (the page's store for this server). */
  extras: ServerExtrasStore;
  /** Reads the running local server's recent stderr; absent for a remote server or one not running. */
  stderr?: (() => Promise<string>) | undefined;
  /** Puts a prompt's text into the chat's message box. */
  onUseInChat?: (text: string) => void;
}

/** One server: name, where it is, its connection status, and what changed in its tool list. */
export function ServerCard({
  server,
  status,
  onEdit,
  onRemove,
  onToggle,
  onReconnect,
  onExplore,
  oauth,
  onSignIn,
  logs,
  onSetLogLevel,
  roots,
  publishedSkills,
  tasks,
  extras,
  stderr,
  onUseInChat,
}: ServerCardProps) {
  // A lost connection being tried again reads "restarting", not a plain error.
  const restarting = (status?.state === "error" || status?.state === "connecting") && status.restart !== undefined;
  const state = server.enabled ? (restarting ? "restarting" : (status?.state ?? "idle")) : "disabled";
  const wantsSignIn = server.enabled && status?.state === "error" && status.error.kind === "oauth";
  const showOAuth =
    oauth !== undefined &&
    onSignIn !== undefined &&
    server.transport !== "stdio" &&
    (wantsSignIn || oauth.store.ids().includes(server.id) || oauth.logFor(server.id).steps.length > 0);
  // A command shows exactly as it runs: line breaks and hidden characters spelled out.
  const where = escapeHidden(server.transport === "stdio" ? [server.command, ...(server.args ?? [])].join(" ") : (server.url ?? ""));
  return (
    <li className={styles.serverCard} aria-label={`Server ${server.name}`}>
      <div className={styles.serverHead}>
        <label className="toggle" title={server.enabled ? "Disable" : "Enable"}>
          <input type="checkbox" checked={server.enabled} onChange={(e) => onToggle(e.target.checked)} aria-label={`Enable ${server.name}`} />
        </label>
        <strong className={styles.serverName}>{server.name}</strong>
        <Badge tone={toneOf(state)} data-testid={`server-status-${server.name}`}>
          {state}
        </Badge>
      </div>
      <div className={`${styles.serverWhere} muted`} title={where}>
        {transportLabel(server.transport)}
        {server.maxCallsInFlight !== undefined ? ` · ${plural(server.maxCallsInFlight, "call")} at a time` : ""}
        {server.protocolEra ? ` · ${FORCED_ERA_NOTE[server.protocolEra]}` : ""} · {where}
      </div>
      <StatusLine name={server.name} status={server.enabled ? status : undefined} stdio={server.transport === "stdio"} />
      <div className={styles.serverActions}>
        {wantsSignIn && onSignIn ? (
          <button type="button" className="primary" onClick={() => onSignIn(false)} title="Opens the server's sign-in page in a popup">
            Sign in
          </button>
        ) : null}
        {onExplore && state === "connected" ? (
          <button type="button" onClick={onExplore} title="Writes a program into the editor that calls this server's read-only tools with sample arguments">
            Explore
          </button>
        ) : null}
        <button type="button" onClick={onReconnect} disabled={!server.enabled}>
          Reconnect
        </button>
        <button type="button" onClick={onEdit}>
          Edit
        </button>
        <ConfirmButton label="Remove" question={`Remove ${server.name}?`} onConfirm={onRemove} />
      </div>
      {status?.state === "connected" && server.enabled ? (
        <ServerExtras
          serverName={server.name}
          extras={extras}
          prompts={status.prompts}
          resources={status.resources}
          {...(onUseInChat ? { onUseInChat } : {})}
        />
      ) : null}
      {tasks ? <ServerTasks serverId={server.id} serverName={server.name} store={tasks} /> : null}
      {status?.state === "connected" && status.skills && server.enabled && publishedSkills ? (
        <PublishedSkills serverId={server.id} serverName={server.name} store={publishedSkills} {...(onUseInChat ? { onUseInChat } : {})} />
      ) : null}
      {status?.state === "connected" && stderr ? <StderrView serverName={server.name} read={stderr} /> : null}
      {logs && onSetLogLevel ? (
        <ServerLogView
          serverName={server.name}
          logs={logs}
          canSetLevel={status?.state === "connected" && status.capabilities.logging !== undefined}
          setLevel={onSetLogLevel}
        />
      ) : null}
      {roots && server.enabled ? <RootsEditor serverId={server.id} serverName={server.name} roots={roots} /> : null}
      {showOAuth ? <OAuthPanel serverId={server.id} serverName={server.name} oauth={oauth} onSignIn={onSignIn} open={wantsSignIn} /> : null}
    </li>
  );
}

function StatusLine({ name, status, stdio }: { name: string; status: ServerStatus | undefined; stdio: boolean }) {
  if (!status) return null;
  if (status.state === "error") {
    return (
      <div className={styles.serverError} role="alert">
        <b>{status.error.kind}</b>: {status.error.message}
        {status.restart ? (
          <RestartLine plan={status.restart} stdio={stdio} />
        ) : status.error.kind === "disconnected" ? (
          <div>Press Reconnect to connect again.</div>
        ) : null}
      </div>
    );
  }
  if (status.state === "connecting" && status.restart) {
    return (
      <div className={`${styles.serverInfo} muted`}>
        {stdio ? "Starting the server again" : "Connecting again"} (try {status.restart.attempt} of {status.restart.of})…
      </div>
    );
  }
  if (status.state !== "connected") return null;
  const change = status.lastChange;
  return (
    <div className={`${styles.serverInfo} muted`}>
      {status.serverInfo.name} {status.serverInfo.version} · <span data-testid={`server-protocol-${name}`}>{describeProtocol(status.protocolVersion)}</span> ·{" "}
      {/* A stdio server reaches the page through the local bridge's HTTP session; what the person set up is stdio. */}
      {stdio ? "stdio via the local bridge" : status.transport}
      {status.localProcess && <LocalProcessNote name={name} process={status.localProcess} />}
      {status.via === "proxy" ? " via proxy" : ""}
      {status.tasks && (
        <span data-testid={`server-tasks-${name}`} title="The server offers tasks: it may run a call in the background and report how it stands until it ends.">
          {" "}
          · tasks
        </span>
      )}{" "}
      · {plural(status.tools.length, "tool")}
      {status.toolsTtlMs !== undefined && (
        <span
          data-testid={`server-list-ttl-${name}`}
          title="The server says its tool list stays valid this long (a 2026-07-28 cache hint): it is not asked for again before then, unless you reconnect."
        >
          {" "}
          (cached {formatDuration(status.toolsTtlMs)})
        </span>
      )}
      {status.prompts.length > 0 ? ` · ${plural(status.prompts.length, "prompt")}` : ""}
      {status.resources.length > 0 ? ` · ${plural(status.resources.length, "resource")}` : ""}
      {change && (
        <div className={styles.toolChange}>
          tools changed: {change.added.length > 0 && <span>+{change.added.join(", +")} </span>}
          {change.removed.length > 0 && <span>−{change.removed.join(", −")} </span>}
          {change.changed.length > 0 && <span>~{change.changed.join(", ~")}</span>}
        </div>
      )}
    </div>
  );
}

/** "Starting it again in 4 s (try 2 of 8)", counting down. */
function RestartLine({ plan, stdio }: { plan: RestartPlan; stdio: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((plan.at - now) / 1_000));
  return (
    <div data-testid="server-restart">
      {stdio ? "Its tools are unavailable until it runs again. Starting it again" : "Its tools are unavailable until it is back. Connecting again"} in {seconds}{" "}
      s (try {plan.attempt} of {plan.of}); Reconnect tries now.
    </div>
  );
}

function transportLabel(transport: ServerConfig["transport"]): string {
  return transport === "streamable-http" ? "HTTP" : transport === "sse" ? "SSE" : "stdio";
}

/** A local server's process: its id, and whether this page joined it running in other tabs (tabs share one process per server). */
function LocalProcessNote({ name, process }: { name: string; process: { pid: number; sharedWith: number } }) {
  // As it stood when this page connected (a tab that joins later does not change this one's line).
  // No count: the bridge's count also holds sessions of a page that just closed, until they end.
  const shared = process.sharedWith > 0 ? ", already running in another tab" : "";
  return (
    <span
      data-testid={`server-process-${name}`}
      title="Tabs that run the same local server (command, arguments, environment and folder) share one process; it stops when no tab holds it."
    >
      {` · pid ${process.pid}${shared}`}
    </span>
  );
}
