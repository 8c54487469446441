"use client";

import { useRef, useState } from "react";
import { MAX_LANES, useCompare } from "@/components/hooks/use-compare";
import { usePendingApprovals } from "@/components/hooks/use-timeline-debugger";
import { Markdown } from "@/components/chat/Markdown";
import { ApprovalPrompt } from "@/components/timeline/ApprovalPrompt";
import { Badge, toneOf } from "@/components/ui/Badge";
import { Modal } from "@/components/ui/Modal";
import { compareVerdict } from "@/lib/evals/report";
import { groupDigits } from "@/lib/text/display";
import { COMPARE_METRICS, ratiosTo, type LaneResult } from "@/lib/model/lanes";
import { PROVIDER_IDS, providerInfo, type ProviderId } from "@/lib/model/providers";
import type { ToolMode } from "@/lib/model/tool-handler";
import styles from "./CompareDialog.module.css";

export interface CompareDialogProps {
  /** The prompt to start from (the chat's last message). */
  initialPrompt: string;
  onClose: () => void;
}

const format = (n: number) => groupDigits(n);

/** Compare: one prompt in side-by-side lanes (code / classic, and models), with figures, ratios and bars. */
export function CompareDialog({ initialPrompt, onClose }: CompareDialogProps) {
  const compare = useCompare();
  // Destructive calls of a lane wait here for the person (the timeline is behind this dialog).
  const approvals = usePendingApprovals();
  const ref = useRef<HTMLDialogElement>(null);
  const [prompt, setPrompt] = useState(initialPrompt);
  const { lanes, setLanes, results, running } = compare;

  const update = (i: number, patch: Partial<(typeof lanes)[number]>) => setLanes(lanes.map((lane, j) => (j === i ? { ...lane, ...patch } : lane)));
  const done = results.filter((r) => r.status === "done" || r.status === "error").length;

  return (
    <Modal title="Compare code mode and classic tool calling" width="wide" onClose={onClose} dialogRef={ref}>
      <p className="muted small">
        The same prompt in each lane, each a fresh conversation: code mode (one program) against classic tool calling (every tool offered to the model), and
        other models if you like. Lanes run one after another through this page&apos;s sandbox and servers; mocks and approvals apply to every call.
      </p>
      <label className="field">
        <span>Prompt</span>
        <textarea value={prompt} rows={3} onChange={(e) => setPrompt(e.target.value)} placeholder="Ask something your servers can answer…" />
      </label>
      <table className={styles.lanes} aria-label="Lanes">
        <tbody>
          {lanes.map((lane, i) => (
            <tr key={i}>
              <th scope="row">Lane {i + 1}</th>
              <td>
                <select
                  aria-label={`Lane ${i + 1} mode`}
                  value={lane.toolMode}
                  onChange={(e) => update(i, { toolMode: e.target.value as ToolMode })}
                  disabled={running}
                >
                  <option value="code">code mode</option>
                  <option value="classic">classic tools</option>
                  <option value="classic-search">classic + tool search</option>
                </select>
              </td>
              <td>
                <select
                  aria-label={`Lane ${i + 1} provider`}
                  value={lane.provider}
                  onChange={(e) => update(i, { provider: e.target.value as ProviderId, modelId: providerInfo(e.target.value as ProviderId).defaultModel })}
                  disabled={running}
                >
                  {PROVIDER_IDS.map((id) => (
                    <option key={id} value={id}>
                      {providerInfo(id).label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input
                  aria-label={`Lane ${i + 1} model`}
                  value={lane.modelId}
                  onChange={(e) => update(i, { modelId: e.target.value })}
                  disabled={running || lane.provider === "demo"}
                />
              </td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove lane ${i + 1}`}
                  onClick={() => setLanes(lanes.filter((_, j) => j !== i))}
                  disabled={running || lanes.length <= 1}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toolbar">
        <button type="button" onClick={() => setLanes([...lanes, { ...lanes.at(-1)! }])} disabled={running || lanes.length >= MAX_LANES}>
          Add lane
        </button>
        <span className="spacer" />
        {running ? (
          <>
            <span role="status" className="muted">
              Lane {Math.min(done + 1, lanes.length)} of {lanes.length} running…
            </span>
            <button type="button" onClick={compare.stop}>
              Stop
            </button>
          </>
        ) : (
          <button type="button" className="primary" onClick={() => compare.run(prompt)} disabled={prompt.trim() === ""}>
            Run compare
          </button>
        )}
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      {running && approvals.pending.length > 0 ? (
        <section className={styles.waiting} aria-label="Waiting for your approval">
          <h3>Waiting for you: lane {Math.min(done + 1, lanes.length)} wants to run a destructive tool</h3>
          {approvals.pending.map((approval) => (
            <ApprovalPrompt key={approval.callId} approval={approval} onDecide={approvals.decide} />
          ))}
        </section>
      ) : null}
      {results.length > 0 ? <Results results={results} /> : null}
    </Modal>
  );
}

/** The form a lane's request gave the tools in, in a few words. */
function formLabel(lane: LaneResult): string {
  if (lane.spec.toolMode === "classic") return "every tool";
  if (lane.spec.toolMode === "classic-search") return "tool search (deferred tools)";
  if (!lane.form) return "—";
  return lane.form.mode === "search" ? "tool search (namespaces)" : "every declaration";
}

function Results({ results }: { results: readonly LaneResult[] }) {
  const estimated = results.some((r) => r.estimatedTokens);
  const verdict = compareVerdict(results);
  return (
    <section aria-label="Compare results" className={styles.results}>
      <table className={styles.figures}>
        <thead>
          <tr>
            <th scope="col">metric</th>
            {results.map((r) => (
              <th key={r.spec.id} scope="col">
                {r.spec.label}{" "}
                <Badge tone={toneOf(r.status === "done" ? "ok" : r.status === "running" ? "running" : r.status === "error" ? "error" : "idle")}>
                  {r.status}
                </Badge>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" title="How the request gave the model the tools: every declaration, tool search, or (classic) every tool">
              Tools given as
            </th>
            {results.map((r, i) => (
              <td key={r.spec.id} data-testid={`compare-form-${i + 1}`} title={r.form?.why}>
                {r.status === "waiting" ? <span className="muted">—</span> : formLabel(r)}
              </td>
            ))}
          </tr>
          {COMPARE_METRICS.map((metric) => {
            const ratios = ratiosTo(results, metric.key);
            const max = Math.max(1, ...results.map((r) => r[metric.key]));
            return (
              <tr key={metric.key}>
                <th scope="row">
                  {metric.label}
                  {estimated && (metric.key === "inputTokens" || metric.key === "outputTokens") ? " (estimated)" : ""}
                </th>
                {results.map((r, i) => (
                  <td key={r.spec.id} data-testid={`compare-${metric.key}-${i + 1}`}>
                    {r.status === "waiting" ? (
                      <span className="muted">—</span>
                    ) : (
                      <>
                        <div className={styles.bar} style={{ width: `${(r[metric.key] / max) * 100}%` }} aria-hidden="true" />
                        <span className={styles.figure}>{format(r[metric.key])}</span>
                        {i > 0 && ratios[i] !== undefined ? <span className="muted"> · {ratios[i].toFixed(2)}×</span> : null}
                      </>
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {verdict ? (
        <p className={styles.verdict} data-testid="compare-verdict">
          {verdict}
        </p>
      ) : null}
      <p className="muted small">
        Ratios are against lane 1. {estimated ? "Token figures marked estimated: a provider (or the demo model) reported estimates." : ""}{" "}
        <a className="button" download="compare.json" href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(results, null, 2))}`}>
          Export JSON
        </a>
      </p>
      <div className={styles.answers}>
        {results.map((r) => (
          <details key={r.spec.id} className={styles.answer} open={results.length <= 2}>
            <summary>Answer, {r.spec.label}</summary>
            {r.error ? <div className="error-box">{r.error}</div> : null}
            <div className={styles.answerText}>
              {r.answer ? <Markdown text={r.answer} /> : <p className="muted">{r.status === "running" ? "…" : "(no answer)"}</p>}
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
