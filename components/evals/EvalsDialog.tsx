"use client";

import { useEffect, useRef, useState } from "react";
import { useEvals, type DestructivePolicy } from "@/components/hooks/use-evals";
import { usePendingApprovals } from "@/components/hooks/use-timeline-debugger";
import { ApprovalPrompt } from "@/components/timeline/ApprovalPrompt";
import { Badge } from "@/components/ui/Badge";
import { Modal } from "@/components/ui/Modal";
import { ChatMessage } from "@/components/chat/ChatMessage";
import { reportByKind, summarise, type EvalRun, type KindFigures } from "@/lib/evals/report";
import { otlpTraces } from "@/lib/timeline/otlp";
import demoSuite from "@/evals/demo.json";
import styles from "./EvalsDialog.module.css";

export interface EvalsDialogProps {
  onClose: () => void;
}

/** Evals in the page: load a suite (file, pasted text or the demo suite), run it, read pass rates and medians, open any run. */
export function EvalsDialog({ onClose }: EvalsDialogProps) {
  const evals = useEvals();
  const approvals = usePendingApprovals();
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [open, setOpen] = useState<EvalRun | undefined>(undefined);
  const groups = summarise(evals.runs);
  // Per kind of task, code mode against classic, once the suite has run (partial figures would mislead).
  const kinds = evals.running ? [] : reportByKind(evals.runs).filter((k) => k.kind !== "unclassified" || evals.runs.every((r) => !r.kind));
  const searched = kinds.some((k) => k.classicSearch !== undefined);
  const failed = evals.runs.filter((r) => !r.passed);
  return (
    <Modal title="Evals" width="wide" onClose={onClose} dialogRef={ref}>
      <p className="muted small">
        A suite runs each case in code mode and/or classic mode, with its models, against the servers connected here, and checks its assertions. The format is
        in <code>docs/evals.md</code>; <code>npm run eval</code> runs the same suite headless.
      </p>
      <div className="toolbar">
        <button type="button" onClick={() => evals.load(JSON.stringify(demoSuite), "demo.json")} disabled={evals.running}>
          Load the demo suite
        </button>
        <label className="file-button button">
          Open a suite file…
          <input
            type="file"
            accept=".json,.yaml,.yml,application/json"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then((content) => evals.load(content, file.name));
              e.target.value = "";
            }}
          />
        </label>
        <span className="spacer" />
        {evals.suite ? (
          <>
            <span className="muted">
              {evals.suite.name}: {evals.suite.cases.length} {evals.suite.cases.length === 1 ? "case" : "cases"}
            </span>
            <a
              className="button"
              download="suite.json"
              href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(evals.suite, null, 2))}`}
            >
              Save suite
            </a>
          </>
        ) : null}
        <label className={styles.policy}>
          Destructive calls{" "}
          <select
            value={evals.destructive}
            onChange={(e) => evals.setDestructive(e.target.value as DestructivePolicy)}
            disabled={evals.running}
            title="What the suite's runs do with calls to tools marked destructiveHint (place_order…). The suite file sets the default (destructive:)."
          >
            <option value="approve">send without asking (as npm run eval)</option>
            <option value="deny">refuse them</option>
            <option value="mock">answer with a stand-in, never send</option>
            <option value="ask">ask me each time</option>
          </select>
        </label>
        {evals.running ? (
          <button type="button" onClick={evals.stop}>
            Stop
          </button>
        ) : (
          <button type="button" className="primary" onClick={evals.run} disabled={!evals.suite}>
            Run suite
          </button>
        )}
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <details>
        <summary>Paste a suite (JSON or YAML)</summary>
        <textarea className={styles.paste} rows={6} value={text} onChange={(e) => setText(e.target.value)} aria-label="Suite text" />
        <button type="button" onClick={() => evals.load(text)} disabled={text.trim() === "" || evals.running}>
          Load
        </button>
      </details>
      {evals.errors.length > 0 ? (
        <div className="error-box" role="alert">
          The suite was refused:
          {"\n"}
          {evals.errors.join("\n")}
        </div>
      ) : null}
      {evals.progress ? (
        <div className={styles.progress}>
          <progress max={evals.progress.total} value={evals.progress.done} aria-label="Eval progress" />
          <span role="status">
            {evals.progress.done} of {evals.progress.total} runs
            {evals.running ? "…" : ""}
            {!evals.running && evals.progress.done < evals.progress.total ? " (stopped: partial results)" : ""}
          </span>
        </div>
      ) : null}
      {evals.running && approvals.pending.length > 0 ? (
        <section aria-label="Waiting for your approval" className={styles.waiting}>
          {approvals.pending.map((approval) => (
            <ApprovalPrompt key={approval.callId} approval={approval} onDecide={approvals.decide} />
          ))}
        </section>
      ) : null}
      {groups.length > 0 ? (
        <table className={styles.table} aria-label="Eval results">
          <thead>
            <tr>
              <th scope="col">case</th>
              <th scope="col">mode</th>
              <th scope="col">model</th>
              <th scope="col">pass</th>
              <th scope="col">requests</th>
              <th scope="col">input tok</th>
              <th scope="col">output tok</th>
              <th scope="col">wall ms</th>
              <th scope="col">runs</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={`${g.case}|${g.mode}|${g.model}`} data-testid="eval-row">
                <td>{g.case}</td>
                <td>{g.mode}</td>
                <td>{g.model}</td>
                <td>
                  <Badge tone={g.passed === g.runs ? "ok" : g.passed === 0 ? "error" : "warn"}>
                    {g.passed}/{g.runs}
                  </Badge>
                </td>
                <td>{g.requests}</td>
                <td>{Math.round(g.inputTokens)}</td>
                <td>{Math.round(g.outputTokens)}</td>
                <td>{Math.round(g.wallMs)}</td>
                <td>
                  {evals.runs
                    .filter((r) => r.case === g.case && r.mode === g.mode && r.model === g.model)
                    .map((r) => (
                      <button key={r.run} type="button" className="link" onClick={() => setOpen(r)} aria-label={`Open ${r.case}, ${r.mode}, run ${r.run}`}>
                        #{r.run}
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {kinds.length > 0 ? (
        <section aria-label="By kind of task">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">kind of task</th>
                <th scope="col">cases</th>
                <th scope="col">code: pass · requests · input tok</th>
                <th scope="col">classic: pass · requests · input tok</th>
                {searched ? <th scope="col">classic + tool search: pass · requests · input tok</th> : null}
                <th scope="col">classic ÷ code</th>
                {searched ? <th scope="col">search ÷ code</th> : null}
              </tr>
            </thead>
            <tbody>
              {kinds.map((k) => (
                <tr key={k.kind} data-testid="eval-kind-row">
                  <td>{k.kind}</td>
                  <td>{k.cases}</td>
                  <td>{kindCell(k.code)}</td>
                  <td>{kindCell(k.classic)}</td>
                  {searched ? <td>{kindCell(k.classicSearch)}</td> : null}
                  <td>{k.inputRatio === undefined ? "—" : `${k.inputRatio.toFixed(2)}×`}</td>
                  {searched ? <td>{k.searchRatio === undefined ? "—" : `${k.searchRatio.toFixed(2)}×`}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="small" data-testid="eval-verdicts">
            {kinds.map((k) => (
              <li key={k.kind}>{k.verdict}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {evals.runs.length > 0 && !evals.running ? (
        <div className="toolbar">
          <a
            className="button"
            download="eval-results.json"
            href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify({ suite: evals.suite?.name, runs: evals.runs.map(({ trace: _trace, ...run }) => run), summary: groups, byKind: kinds }, null, 2))}`}
          >
            Export results (JSON)
          </a>
          <a
            className="button"
            download="eval-traces.otlp.json"
            href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(otlpTraces(evals.runs.flatMap((r) => (r.trace ? [r.trace] : [])))))}`}
          >
            Export traces (OTLP)
          </a>
        </div>
      ) : null}
      {failed.length > 0 && !evals.running ? (
        <div className="warn-box">
          {failed.length} of {evals.runs.length} runs failed:
          <ul>
            {failed.map((r) => (
              <li key={`${r.case}|${r.mode}|${r.model}|${r.run}`}>
                {r.case} [{r.mode}, {r.model}, run {r.run}]:{" "}
                {r.results
                  .filter((a) => a.status === "fail")
                  .map((a) => a.message)
                  .join("; ") || r.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {/* A run of the results shown: a new suite or a new run of it closes the one that was open. */}
      {open && evals.runs.includes(open) ? <OpenRun run={open} onClose={() => setOpen(undefined)} /> : null}
    </Modal>
  );
}

function OpenRun({ run, onClose }: { run: EvalRun; onClose: () => void }) {
  const ref = useRef<HTMLElement>(null);
  // Braces: Chromium's scrollIntoView now returns a promise, and an effect that returns one
  // crashes the page when React takes it for a cleanup on unmount.
  useEffect(() => {
    void ref.current?.scrollIntoView({ block: "start" });
  }, [run]);
  return (
    <section ref={ref} className={styles.open} aria-label={`Run ${run.case}, ${run.mode}, run ${run.run}`}>
      <div className="toolbar">
        <strong>
          {run.case} · {run.mode} · {run.model} · run {run.run}
        </strong>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close run
        </button>
      </div>
      <ul className={styles.checks}>
        {run.results.map((r, i) => (
          <li key={i}>
            <Badge tone={r.status === "pass" ? "ok" : r.status === "fail" ? "error" : "neutral"}>{r.status}</Badge> {r.message}
          </li>
        ))}
      </ul>
      {run.error ? <div className="error-box">{run.error}</div> : null}
      <div className={styles.conversation}>
        {(run.messages ?? []).map((message) => (
          <ChatMessage key={message.id} message={message} activity={{}} steps={[]} stop={undefined} />
        ))}
      </div>
      <p className="muted small">Its programs are in the Runs tab of the timeline, like every run of this page.</p>
    </section>
  );
}

/** One mode's figures for a kind of task, or a dash when that mode did not run. */
function kindCell(f: KindFigures | undefined): string {
  return f ? `${f.passed}/${f.runs} · ${f.requests} · ${Math.round(f.inputTokens)}` : "—";
}
