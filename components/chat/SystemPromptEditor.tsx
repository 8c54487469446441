"use client";

import { useState } from "react";
import type { SystemPromptView } from "@/components/hooks/use-chat-model";
import { groupDigits } from "@/lib/text/display";
import styles from "./SystemPromptEditor.module.css";

/** Edits the system prompt sent with every request: save keeps a version, reset returns to the generated one. */
export function SystemPromptEditor({ prompt }: { prompt: SystemPromptView }) {
  // null: not editing, so the textarea follows the prompt in effect (which follows the servers).
  const [draft, setDraft] = useState<string | null>(null);
  const dirty = draft !== null && draft !== prompt.prompt;
  return (
    <div className={styles.editor}>
      <div className={styles.bar}>
        <span className={styles.state}>{prompt.edited ? "Edited system prompt" : "Generated system prompt (follows the connected servers)"}</span>
        <span className={styles.count}>{groupDigits((draft ?? prompt.prompt).length)} characters</span>
      </div>
      <textarea
        className={styles.text}
        value={draft ?? prompt.prompt}
        onChange={(e) => setDraft(e.target.value)}
        aria-label="System prompt"
        spellCheck={false}
        rows={12}
      />
      <div className={styles.bar}>
        <button
          type="button"
          disabled={!dirty}
          onClick={() => {
            if (draft !== null) prompt.save(draft);
            setDraft(null);
          }}
        >
          Save as new version
        </button>
        <button type="button" disabled={!dirty} onClick={() => setDraft(null)}>
          Discard changes
        </button>
        <button
          type="button"
          disabled={!prompt.edited && !dirty}
          onClick={() => {
            setDraft(null);
            prompt.reset();
          }}
        >
          Reset to default
        </button>
      </div>
      {prompt.versions.length > 0 ? (
        <details className={styles.versions}>
          <summary>Versions this session ({prompt.versions.length})</summary>
          <ol>
            {prompt.versions.map((v) => (
              <li key={v.id}>
                v{v.id} · {new Date(v.savedAt).toLocaleTimeString()} · {groupDigits(v.text.length)} characters{" "}
                <button
                  type="button"
                  onClick={() => {
                    setDraft(null);
                    prompt.restore(v.id);
                  }}
                >
                  Use
                </button>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
