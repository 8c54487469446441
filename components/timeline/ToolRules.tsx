"use client";

import { useState } from "react";
import { toolKey } from "@/lib/host-calls/approvals";
import type { MockTable, ToolMock } from "@/lib/host-calls/mocks";
import type { RecordedNamespace } from "@/lib/timeline/run-record";
import { MockEditor } from "./MockEditor";
import styles from "./Timeline.module.css";
import { Badge } from "@/components/ui/Badge";

/** What the tools list shows and changes. */
export interface ToolRulesProps {
  namespaces: readonly RecordedNamespace[];
  mocks: MockTable;
  onMock: (namespace: string, fn: string, mock: ToolMock | undefined) => void;
  destructive: ReadonlySet<string>;
  marked: ReadonlySet<string>;
  onToggleMarked: (server: string, tool: string) => void;
}

/** Per tool: ask before running it (destructive tools always ask), and mock it. */
export function ToolRules({ namespaces, mocks, onMock, destructive, marked, onToggleMarked }: ToolRulesProps) {
  const [editing, setEditing] = useState<string | undefined>(undefined);
  if (namespaces.length === 0) {
    return (
      <div className="empty-state">
        <h3>No servers connected</h3>
        <p>Connect a server to mock its tools or to ask before they run.</p>
      </div>
    );
  }
  return (
    <div className={`${styles.view} ${styles.scroll}`}>
      <p className="muted">
        Mocked tools answer from their mock and never reach the server (mock, then replay, then the live server). Tools that ask pause the run on their timeline
        row until you approve or deny.
      </p>
      {namespaces.map((ns) => (
        <section key={ns.namespace} aria-label={`Tools of ${ns.server}`}>
          <h4>{ns.server}</h4>
          <ul className={styles.toolList}>
            {ns.tools.map(({ fn, tool }) => {
              const key = toolKey(ns.server, tool);
              const mock = Object.hasOwn(mocks, ns.namespace) ? mocks[ns.namespace]?.[fn] : undefined;
              const isDestructive = destructive.has(key);
              const id = `${ns.namespace}.${fn}`;
              return (
                <li key={fn} className={styles.toolItem}>
                  <span className={styles.toolName}>{id}</span>
                  <label className="check" title={isDestructive ? "The server marks this tool destructive (destructiveHint)" : undefined}>
                    <input
                      type="checkbox"
                      checked={isDestructive || marked.has(key)}
                      disabled={isDestructive}
                      onChange={() => onToggleMarked(ns.server, tool)}
                    />{" "}
                    ask before running{isDestructive ? " (destructive)" : ""}
                  </label>
                  {mock && <Badge>mocked: {mock.kind}</Badge>}
                  <button type="button" onClick={() => setEditing(editing === id ? undefined : id)} aria-expanded={editing === id}>
                    {mock ? "Edit mock" : "Mock…"}
                  </button>
                  {editing === id && (
                    <MockEditor
                      label={id}
                      mock={mock}
                      onSave={(next) => {
                        onMock(ns.namespace, fn, next);
                        setEditing(undefined);
                      }}
                      onCancel={() => setEditing(undefined)}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
