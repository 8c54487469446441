"use client";

import { useState } from "react";
import { LEGACY_FEATURE } from "@/lib/mcp/protocol-era";
import { formatRoots, parseRoots, type RootsStore } from "@/lib/mcp/roots";
import styles from "./Servers.module.css";

/** The directories a server may work in (MCP roots), one file:// URI a line with an optional name; saving tells a connected server. */
export function RootsEditor({ serverId, serverName, roots }: { serverId: string; serverName: string; roots: RootsStore }) {
  const [text, setText] = useState(() => formatRoots(roots.get(serverId)));
  const [errors, setErrors] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const count = roots.get(serverId).length;
  return (
    <details className={styles.oauth} aria-label={`Roots of ${serverName}`}>
      <summary>
        Roots · {count === 0 ? "none" : `${count} director${count === 1 ? "y" : "ies"}`} ·{" "}
        <span className="muted" title={LEGACY_FEATURE.title}>
          {LEGACY_FEATURE.label}
        </span>
      </summary>
      <form
        className={styles.oauthClient}
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = parseRoots(text);
          if (!parsed.ok) {
            setErrors(parsed.errors);
            return;
          }
          setErrors([]);
          roots.set(serverId, parsed.roots);
          setSaved(true);
        }}
      >
        <div className="muted small">
          Directories this server may work in, one a line: a file:// URI, then an optional name. The server is told when they change.
        </div>
        <textarea
          aria-label={`Roots of ${serverName}, one a line`}
          rows={3}
          spellCheck={false}
          placeholder="file:///home/me/project Project"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
        />
        {errors.length > 0 && (
          <div className={styles.stepError} role="alert">
            {errors.join("\n")}
          </div>
        )}
        <button type="submit">{saved ? "Saved" : "Save roots"}</button>
      </form>
    </details>
  );
}
