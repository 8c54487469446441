"use client";

import { useEffect, useRef, useState } from "react";
import type { ChatDraft } from "./chat-draft";
import styles from "./ChatComposer.module.css";

interface ChatComposerProps {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Text other parts of the page insert (a server's prompt). */
  draft?: ChatDraft;
}

/** The message box: Enter sends, Shift+Enter makes a new line; Stop while the model or the code runs. */
export function ChatComposer({ busy, onSend, onStop, draft }: ChatComposerProps) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(
    () =>
      draft?.subscribe((inserted) => {
        setText(inserted);
        box.current?.focus();
      }),
    [draft],
  );
  const submit = () => {
    if (text.trim() === "") return;
    onSend(text);
    setText("");
  };
  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={box}
        className={styles.input}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
        placeholder="Ask something your servers can answer…"
        aria-label="Message"
        rows={2}
      />
      {busy ? (
        <button type="button" onClick={onStop} className={styles.stop}>
          Stop
        </button>
      ) : null}
      <button type="submit" disabled={text.trim() === ""}>
        Send
      </button>
    </form>
  );
}
