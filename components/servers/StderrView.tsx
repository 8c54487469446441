"use client";

import { useState } from "react";
import styles from "./Servers.module.css";
import { messageOf } from "@/lib/text/error-message";

/** A running local (stdio) server's recent stderr, read on demand (secrets removed by the bridge). */
export function StderrView({ serverName, read }: { serverName: string; read: () => Promise<string> }) {
  const [text, setText] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const refresh = () =>
    read().then(
      (stderr) => {
        setText(stderr);
        setProblem(undefined);
      },
      (error: unknown) => setProblem(messageOf(error)),
    );
  return (
    <details
      className={styles.oauth}
      aria-label={`stderr of ${serverName}`}
      onToggle={(event) => {
        if (event.currentTarget.open && text === undefined) void refresh();
      }}
    >
      <summary>stderr</summary>
      <div className={styles.oauthActions}>
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      {problem && (
        <div className={styles.stepError} role="alert">
          {problem}
        </div>
      )}
      {text !== undefined && <pre className={styles.stepDetail}>{text === "" ? "(nothing written to stderr)" : text}</pre>}
    </details>
  );
}
