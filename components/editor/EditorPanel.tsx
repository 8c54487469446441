"use client";

import { countRender } from "@/components/dev/render-probe";
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { EditorHandle, EditorMarker } from "./CodeEditor";
import type { ChatCodeEntry, PendingCodeApproval } from "@/lib/playground/editor-state";
import type { UseRunLimitsResult } from "@/components/hooks/use-run-limits";
import { LimitsControl } from "./LimitsControl";
import styles from "./Editor.module.css";

// Monaco touches `window` at import, so it loads on the client only.
const CodeEditor = dynamic(() => import("./CodeEditor").then((m) => m.CodeEditor), {
  ssr: false,
  loading: () => <div className={styles.editorLoading}>Loading editor…</div>,
});

export interface EditorPanelProps {
  code: string;
  onCodeChange: (code: string) => void;
  onReset: () => void;
  running: boolean;
  /** Runs the editor's code; the shortcut passes the text Monaco holds at that moment. */
  onRun: (code?: string) => void;
  onStop: () => void;
  errorMarker: EditorMarker | undefined;
  declarations: string;
  /** Step mode: model code waiting for Run (which sends the editor's code, edited or not) or Skip. */
  pending?: PendingCodeApproval | undefined;
  onSkip?: () => void;
  /** The model's execute_code calls, newest first. */
  history?: readonly ChatCodeEntry[];
  /** Filled in when Monaco mounts (the page reveals lines through it). */
  editorHandle?: { current: EditorHandle | null };
  limits?: UseRunLimitsResult;
  /** The program's inputs (a JSON object whose keys become globals), as typed. */
  data?: string;
  onDataChange?: (data: string) => void;
  /** Why the inputs cannot be used, when they cannot (Run waits until they can). */
  dataProblem?: string | undefined;
  /** Opens "Save as skill" for the last run of this code that worked; undefined when there is none. */
  onSaveSkill?: (() => void) | undefined;
}

/**
 * The Editor panel: Monaco plus Run, Stop and Reset. Monaco (about 4 MB of JavaScript, some
 * 200 ms of the main thread to start) loads when the person comes to the code: the pointer over
 * it, focus in it, a line to reveal, an error to mark or step mode's code to edit. Until then the
 * code shows as text, and the page stays quiet after its start (docs/speed.md, "The
 * page's start").
 */
export function EditorPanel(props: EditorPanelProps) {
  countRender("editor");
  const {
    code,
    onCodeChange,
    onReset,
    running,
    onRun,
    onStop,
    errorMarker,
    declarations,
    pending,
    onSkip,
    history = [],
    editorHandle: handleRef,
    limits,
    data = "",
    onDataChange,
    dataProblem,
    onSaveSkill,
  } = props;
  const inputCount = dataProblem ? undefined : data.trim() === "" ? 0 : Object.keys(JSON.parse(data) as object).length;
  const [inputsOpen, setInputsOpen] = useState(false);
  const showInputs = inputsOpen || dataProblem !== undefined;
  const [wanted, setWanted] = useState(false);
  // A line asked for before Monaco mounted, and whether the person was in the code then.
  const [onMount, setOnMount] = useState<{ line?: number; focus: boolean }>({ focus: false });
  const showEditor = wanted || errorMarker !== undefined || pending !== undefined;
  const want = (focus: boolean) => {
    if (focus) setOnMount((m) => (m.focus ? m : { ...m, focus: true }));
    setWanted(true);
  };
  useEffect(() => {
    if (showEditor || !handleRef) return;
    handleRef.current = {
      revealLine: (line) => {
        setOnMount({ line, focus: true });
        setWanted(true);
      },
    };
  }, [showEditor, handleRef]);
  return (
    <section className="panel" aria-label="Editor">
      <div className="panel-header">
        <h2>Editor</h2>
        {history.length > 0 && (
          <select
            aria-label="Code history"
            className={styles.historySelect}
            value=""
            onChange={(e) => {
              const entry = history.find((h) => h.toolCallId === e.target.value);
              if (entry) onCodeChange(entry.code);
            }}
          >
            <option value="">Code history ({history.length})…</option>
            {history.map((h, i) => (
              <option key={h.toolCallId} value={h.toolCallId}>
                #{history.length - i} · {new Date(h.at).toLocaleTimeString()} ·{" "}
                {h.code
                  .split("\n")
                  .find((l) => l.trim())
                  ?.slice(0, 40)}
              </option>
            ))}
          </select>
        )}
        <span className="spacer" />
        {onDataChange && (
          <button
            type="button"
            aria-pressed={showInputs}
            onClick={() => setInputsOpen((open) => !open)}
            title="The program's inputs: a JSON object whose keys become globals (a skill's parameters)"
          >
            Inputs <span className="muted">{inputCount ?? "!"}</span>
          </button>
        )}
        <button
          type="button"
          onClick={onSaveSkill}
          disabled={!onSaveSkill || running}
          title={onSaveSkill ? "Keep this program as a tool with tests: skills.name(input)" : "Run the code first: a skill is saved from a run that worked"}
        >
          Save as skill…
        </button>
        {limits && <LimitsControl limits={limits} />}
        <button type="button" onClick={onReset} disabled={running} title="Replace the code with the sample script">
          Reset
        </button>
        <button type="button" onClick={onStop} disabled={!running}>
          Stop
        </button>
        {/* In step mode the banner below holds the one Run (it sends the result to the model). */}
        {!pending && (
          <button
            type="button"
            className="primary"
            onClick={() => onRun()}
            disabled={running || dataProblem !== undefined}
            aria-keyshortcuts="Control+Enter Meta+Enter"
          >
            Run <kbd>Ctrl+Enter</kbd>
          </button>
        )}
      </div>
      {showInputs && onDataChange && (
        <div className={styles.inputsBar} role="group" aria-label="Inputs">
          <span className={`muted small ${styles.inputsHelp}`}>Inputs: each key is a global of the program, and a parameter when it is saved as a skill.</span>
          <textarea
            rows={Math.min(6, Math.max(2, data.split("\n").length))}
            value={data}
            onChange={(e) => onDataChange(e.target.value)}
            placeholder='{ "maxDays": 5 }'
            spellCheck={false}
            aria-label="Inputs JSON"
            aria-invalid={dataProblem !== undefined}
          />
          {dataProblem && (
            <span className={`field-error ${styles.inputsProblem}`} role="alert">
              {dataProblem}
            </span>
          )}
        </div>
      )}
      {pending && (
        <div className={styles.stepBanner} role="alert" aria-label="Model code waiting">
          <span>
            <b>Step mode:</b> the model wants to run this code. Edit it if you like, then Run to send its result to the model, or Skip.
          </span>
          <button type="button" className="primary" onClick={() => onRun()} aria-keyshortcuts="Control+Enter Meta+Enter">
            Run <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" onClick={onSkip}>
            Skip
          </button>
        </div>
      )}
      <div className="panel-body" style={{ overflow: "hidden" }} onPointerEnter={() => want(false)} onPointerDown={() => want(true)}>
        {showEditor ? (
          <CodeEditor
            value={code}
            onChange={onCodeChange}
            onRun={onRun}
            marker={errorMarker}
            declarations={declarations}
            handleRef={handleRef}
            onMounted={onMount}
          />
        ) : (
          <pre
            className={styles.codePreview}
            aria-label="Code (the editor loads when you point at it or focus it)"
            onFocus={() => want(true)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) onRun();
            }}
            tabIndex={0}
          >
            {code}
          </pre>
        )}
      </div>
    </section>
  );
}
