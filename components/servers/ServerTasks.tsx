"use client";

import { useState } from "react";
import { useStore } from "@/components/hooks/use-store";
import type { ServerTasksStore, TrackedTask } from "@/lib/mcp/server-tasks";
import { taskBadge } from "@/lib/timeline/task-text";
import { Badge } from "@/components/ui/Badge";
import styles from "./Servers.module.css";
import { messageOf } from "@/lib/text/error-message";

const NONE: readonly TrackedTask[] = [];

/**
 * The tasks the page's calls started on this server (lib/mcp/server-tasks.ts): where each stands,
 * the server's last message and, once ended, the start of its result. They outlive the run and a
 * reload; Cancel sends `tasks/cancel`, Dismiss forgets an ended one. Nothing shows until a call
 * of this server has become a task.
 */
export function ServerTasks({ serverId, serverName, store }: { serverId: string; serverName: string; store: ServerTasksStore }) {
  const all = useStore(store, undefined, { fallback: NONE });
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const mine = all.filter((t) => t.serverId === serverId);
  if (mine.length === 0) return null;
  const running = mine.filter((t) => t.status === "working" || t.status === "input_required").length;
  // Not a collapsible section: a task that ends while the person watches stays in view.
  return (
    <div className={styles.serverExtras} role="group" aria-label={`Tasks of ${serverName}`}>
      <div className="small">Tasks · {running > 0 ? `${running} running` : `${mine.length} ended`}</div>
      <ul aria-label={`Tasks on ${serverName}`}>
        {mine.map((task) => {
          const badge = taskBadge({ taskId: task.taskId, status: task.status, messages: [], polls: 0 });
          const ended = task.status === "completed" || task.status === "failed" || task.status === "cancelled";
          return (
            <li key={task.taskId} aria-label={`Task ${task.taskId}`}>
              <b>{task.tool}</b> <Badge tone={badge.tone}>{badge.text}</Badge> <span className="muted small">{task.taskId}</span>
              {task.message ? <div className="muted small">{task.message}</div> : null}
              {task.outcome ? <div className="small">{task.outcome}</div> : null}
              {ended ? (
                <button type="button" className="link" onClick={() => store.dismiss(task.taskId)}>
                  Dismiss
                </button>
              ) : (
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    setProblem(undefined);
                    store.cancel(task.taskId).catch((error: unknown) => setProblem(messageOf(error)));
                  }}
                >
                  Cancel
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {problem ? (
        <div className="error-box" role="alert">
          {problem}
        </div>
      ) : null}
    </div>
  );
}
