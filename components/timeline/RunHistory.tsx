"use client";

import { useState, type ChangeEvent } from "react";
import { formatDuration } from "@/lib/timeline/format";
import type { HistoryEntry } from "@/lib/timeline/history";
import type { RunRecord } from "@/lib/timeline/run-record";
import type { FeedStatus } from "@/lib/codemode-mcp/browser/run-feed-client";
import styles from "./Timeline.module.css";
import { Badge } from "@/components/ui/Badge";
import { useSkills } from "@/components/hooks/use-skills";

/** What the history list can ask for. */
export interface RunHistoryProps {
  history: readonly HistoryEntry[];
  /** Whether agents' runs through /api/codemode/mcp stream in (undefined: not known, or not local mode). */
  agentFeed?: FeedStatus | undefined;
  /** The run shown in the Calls tab (undefined: the live run). */
  viewing: string | undefined;
  onView: (id: string | undefined) => void;
  onReplay: (record: RunRecord) => void;
  onExport: (record: RunRecord) => void;
  /** Saves the run as an OpenTelemetry trace. */
  onExportTrace?: (record: RunRecord) => void;
  onRemove: (id: string) => void;
  onCompare: (a: string, b: string) => void;
  /** Reads a run file; resolves with an error message when it was refused. */
  onImport: (file: File) => Promise<string | undefined>;
}

/** This session's runs: status, duration, call count; view, replay, export, compare two, import a file. */
export function RunHistory({ history, agentFeed, viewing, onView, onReplay, onExport, onExportTrace, onRemove, onCompare, onImport }: RunHistoryProps) {
  const skills = useSkills();
  const [picked, setPicked] = useState<readonly string[]>([]);
  const [importError, setImportError] = useState<string | undefined>(undefined);
  const toggle = (id: string) => setPicked((current) => (current.includes(id) ? current.filter((p) => p !== id) : [...current.slice(-1), id]));
  const importFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    onImport(file).then(setImportError, (error: unknown) => setImportError(String(error)));
  };
  const [a, b] = picked;
  return (
    <div className={styles.view}>
      <div className={`toolbar ${styles.filters}`}>
        <label className="file-button">
          Import run file…
          <input type="file" accept="application/json,.json" onChange={importFile} />
        </label>
        <button type="button" disabled={a === undefined || b === undefined} onClick={() => a && b && onCompare(a, b)}>
          Compare selected ({picked.length}/2)
        </button>
        {agentFeed?.on && (
          <span className="muted" title="Programs that agents run through this app's code-mode MCP endpoint appear here while they run">
            Agent runs from /api/codemode/mcp appear here live
          </span>
        )}
        {viewing !== undefined && (
          <button type="button" onClick={() => onView(undefined)}>
            Back to the live run
          </button>
        )}
      </div>
      {importError && (
        <div className="error-box" role="alert">
          {importError}
        </div>
      )}
      {history.length === 0 ? (
        <div className="empty-state">
          <h3>No runs yet</h3>
          <p>Every run of this session lands here, with its status, duration and calls. Pick two to compare them, replay one, or export it as a file.</p>
        </div>
      ) : (
        <div className={styles.scroll}>
          <table className={styles.table} aria-label="Runs of this session">
            <thead>
              <tr>
                <th aria-label="Compare" />
                <th>run</th>
                <th>status</th>
                <th className={styles.numeric}>duration</th>
                <th className={styles.numeric}>calls</th>
                <th className={styles.numeric}>errors</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {history.map(({ summary, record }) => (
                <tr key={summary.id} aria-current={viewing === summary.id ? "true" : undefined}>
                  <td>
                    <input type="checkbox" aria-label={`Compare ${summary.id}`} checked={picked.includes(summary.id)} onChange={() => toggle(summary.id)} />
                  </td>
                  <td title={summary.startedAt}>
                    {summary.title ?? summary.id}
                    {summary.replayOf && <span className="muted"> (replay of {summary.replayOf})</span>}
                    {record.apps && Object.keys(record.apps).length > 0 && (
                      <Badge title="Keeps the MCP Apps of its calls: they show from this run without their server">
                        {Object.keys(record.apps).length === 1 ? "1 app" : `${Object.keys(record.apps).length} apps`}
                      </Badge>
                    )}
                    <div className="muted">{new Date(summary.startedAt).toLocaleTimeString()}</div>
                  </td>
                  <td>
                    <Badge tone={summary.status === "ok" ? "ok" : summary.status === "unfinished" ? "accent" : "error"}>{summary.status}</Badge>
                  </td>
                  <td className={styles.numeric}>{formatDuration(summary.durationMs)}</td>
                  <td className={styles.numeric}>
                    {summary.callCount}
                    {summary.simulatedCount > 0 && <span className="muted"> ({summary.simulatedCount} simulated)</span>}
                  </td>
                  <td className={styles.numeric}>{summary.errorCount}</td>
                  <td>
                    <div className={styles.actions}>
                      <button type="button" onClick={() => onView(summary.id)} aria-label={`View ${summary.id}`}>
                        view
                      </button>
                      <button type="button" onClick={() => onReplay(record)} aria-label={`Replay ${summary.id}`}>
                        replay
                      </button>
                      <button type="button" onClick={() => onExport(record)} aria-label={`Export ${summary.id}`}>
                        export
                      </button>
                      {onExportTrace ? (
                        <button
                          type="button"
                          onClick={() => onExportTrace(record)}
                          aria-label={`Export ${summary.id} as an OpenTelemetry trace`}
                          title="OTLP JSON: the run and a span per tool call"
                        >
                          trace
                        </button>
                      ) : null}
                      {summary.status === "ok" && (
                        <button
                          type="button"
                          onClick={() => skills.dialog.open(record)}
                          aria-label={`Save ${summary.id} as a skill`}
                          title="Keep this run's program as a tool, with this run as its test"
                        >
                          skill
                        </button>
                      )}
                      <button type="button" onClick={() => onRemove(summary.id)} aria-label={`Remove ${summary.id}`}>
                        ×
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
