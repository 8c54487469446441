"use client";

import { useState } from "react";
import styles from "./ChatComposer.module.css";

interface ChatComposerProps {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter makes a new line; Stop while the model or the code runs. */
export function ChatComposer({ busy, onSend, onStop }: ChatComposerProps) {
  const [text, setText] = useState("");
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
