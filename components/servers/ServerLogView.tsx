"use client";

import { useStore } from "@/components/hooks/use-store";
import { useState } from "react";
import type { LoggingLevel } from "@modelcontextprotocol/client";
import { LOG_LEVELS, type ServerLogEntry, type ServerLogStore } from "@/lib/mcp/server-logs";
import { LEGACY_FEATURE } from "@/lib/mcp/protocol-era";
import styles from "./Servers.module.css";
import { messageOf } from "@/lib/text/error-message";

const NONE: readonly ServerLogEntry[] = [];
const SHOWN = 100;

/** A server's log messages (newest last) and the level it is asked to send (`logging/setLevel`). */
export function ServerLogView({
  serverName,
  logs,
  canSetLevel,
  setLevel,
}: {
  serverName: string;
  logs: ServerLogStore;
  canSetLevel: boolean;
  setLevel: (level: LoggingLevel) => Promise<void>;
}) {
  const entries = useStore(logs, () => logs.entries(serverName), { fallback: NONE });
  const level = useStore(logs, () => logs.level(serverName) ?? "", { fallback: "" });
  const [problem, setProblem] = useState<string | undefined>(undefined);
  if (!canSetLevel && entries.length === 0) return null;
  const shown = entries.slice(-SHOWN);
  return (
    <details className={styles.oauth} aria-label={`Log of ${serverName}`}>
      <summary>
        Log · {entries.length === 0 ? "no messages yet" : `${entries.length} message${entries.length === 1 ? "" : "s"}`} ·{" "}
        <span className="muted" title={LEGACY_FEATURE.title}>
          {LEGACY_FEATURE.label}
        </span>
      </summary>
      {canSetLevel && (
        <label className={styles.oauthActions}>
          <span>Level</span>
          <select
            value={level}
            aria-label={`Log level of ${serverName}`}
            onChange={(event) => {
              const next = event.target.value as LoggingLevel;
              logs.setLevel(serverName, next);
              setProblem(undefined);
              setLevel(next).catch((error: unknown) => setProblem(messageOf(error)));
            }}
          >
            <option value="" disabled>
              server default
            </option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </select>
        </label>
      )}
      {problem && (
        <div className={styles.stepError} role="alert">
          {problem}
        </div>
      )}
      {entries.length > SHOWN && (
        <div className="muted small">
          The last {SHOWN} of {entries.length} kept.
        </div>
      )}
      <ol className={styles.flowSteps} aria-label={`Log messages of ${serverName}`}>
        {shown.map((entry, index) => (
          <li key={index} className={entry.level === "dropped" || LOG_LEVELS.indexOf(entry.level) >= 4 ? styles.stepFailed : undefined}>
            <span className="muted">{new Date(entry.at).toLocaleTimeString()}</span> <b>{entry.level}</b>
            {entry.logger ? <span className="muted"> [{entry.logger}]</span> : null}
            {entry.callId !== undefined ? <span className="muted"> (call #{entry.callId})</span> : null} <span className={styles.logText}>{entry.text}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
