"use client";

import { useState } from "react";
import type { ToolMock } from "@/lib/host-calls/mocks";
import styles from "./Timeline.module.css";
import { messageOf } from "@/lib/text/error-message";

type Mode = ToolMock["kind"];

const PLACEHOLDER: Record<Mode, string> = {
  value: '{ "price": 12.5, "currency": "EUR" }',
  error: "The tool is down for maintenance",
  script:
    "// A function body, run in a fresh sandbox per call.\n// Globals: args (the call's arguments), call (1, 2, …).\nreturn { price: args.weightKg * 2.5, call };",
};

function textOf(mock: ToolMock | undefined): string {
  if (!mock) return "";
  if (mock.kind === "value") return JSON.stringify(mock.value, null, 2) ?? "";
  return mock.kind === "error" ? mock.message : mock.source;
}

/** Edits one tool's mock: a fixed JSON result, a fixed error, or a script run in the sandbox. */
export function MockEditor({
  label,
  mock,
  onSave,
  onCancel,
}: {
  label: string;
  mock: ToolMock | undefined;
  onSave: (mock: ToolMock | undefined) => void;
  onCancel: () => void;
}) {
  const [mode, setMode] = useState<Mode>(mock?.kind ?? "value");
  const [text, setText] = useState(textOf(mock));
  const [error, setError] = useState<string | undefined>(undefined);

  const save = () => {
    if (mode === "value") {
      try {
        onSave({ kind: "value", value: JSON.parse(text) as unknown });
      } catch (e) {
        setError(`Not JSON: ${messageOf(e)}`);
      }
      return;
    }
    if (text.trim() === "") return setError(mode === "error" ? "Write the error message." : "Write the script.");
    onSave(mode === "error" ? { kind: "error", message: text } : { kind: "script", source: text });
  };

  return (
    <div className={styles.editor} role="group" aria-label={`Mock for ${label}`}>
      <div className={`toolbar ${styles.filters}`}>
        <label>
          <input type="radio" name={`mode-${label}`} checked={mode === "value"} onChange={() => setMode("value")} /> fixed result (JSON)
        </label>
        <label>
          <input type="radio" name={`mode-${label}`} checked={mode === "error"} onChange={() => setMode("error")} /> fixed error
        </label>
        <label>
          <input type="radio" name={`mode-${label}`} checked={mode === "script"} onChange={() => setMode("script")} /> script
        </label>
      </div>
      <textarea
        aria-label={`Mock ${mode} for ${label}`}
        value={text}
        placeholder={PLACEHOLDER[mode]}
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
      />
      {error && <span className="field-error">{error}</span>}
      <div className={styles.actions}>
        <button type="button" className="primary" onClick={save}>
          Save mock
        </button>
        {mock && (
          <button type="button" onClick={() => onSave(undefined)}>
            Remove mock
          </button>
        )}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
