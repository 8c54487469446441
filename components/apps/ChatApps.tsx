"use client";

import { useMemo } from "react";
import { useStore } from "@/components/hooks/use-store";
import { usePageIfAny } from "@/components/playground/page-context";
import { toolResourceUri } from "@/lib/mcp-apps/tool-ui";
import type { Playground } from "@/lib/playground/playground";
import type { HistoryEntry } from "@/lib/timeline/history";
import { recordedCalls } from "@/lib/timeline/run-record";
import { CallApp, recordedAppIn } from "./CallApp";
import styles from "./AppView.module.css";

export interface ChatAppsProps {
  toolCallId: string;
  /** The model tool: execute_code (a program) or a classic tool (`namespace__function`). */
  toolName: string;
  input: unknown;
  output?: unknown;
  errorText?: string;
}

const NO_HISTORY: readonly HistoryEntry[] = [];

interface AppCall {
  key: string;
  server: string;
  tool: string;
  args: unknown;
  value?: unknown;
  error?: string;
  label: string;
}

/**
 * The MCP Apps of a chat tool call (docs/mcp-apps.md, "MCP Apps"): for a program, every call
 * of its run (while the run is in the history) whose tool has an app; for a classic call, its
 * tool's app. Each opens on "Show app" with the call's input and result.
 */
export function ChatApps(props: ChatAppsProps) {
  const page = usePageIfAny();
  return page ? <PageChatApps {...props} playground={page.playground} /> : null;
}

function PageChatApps({ toolCallId, toolName, input, output, errorText, playground }: ChatAppsProps & { playground: Playground }) {
  const runId = useStore(playground.world.chatRuns, (links) => links[toolCallId], { fallback: undefined });
  const history = useStore(playground.workbench.history, undefined, { fallback: NO_HISTORY });
  // Chat cards show only after hydration, so the stores' own values are the ones to match.
  const view = useStore(playground.servers.view, undefined, { fallback: playground.servers.view.snapshot() });
  const calls = useMemo((): AppCall[] => {
    const hasApp = (server: string, tool: string) => {
      const found = view.connected.find((s) => s.config.name === server)?.tools.find((t) => t.name === tool);
      return found !== undefined ? toolResourceUri(found) !== undefined : recordedAppIn(history, server, tool) !== undefined;
    };
    if (toolName === "execute_code") {
      const record = history.find((entry) => entry.record.id === runId)?.record;
      if (!record) return [];
      return recordedCalls(record).flatMap((call) => {
        if (!hasApp(call.server, call.tool)) return [];
        const outcome = call.outcome;
        if (outcome.kind !== "value" && outcome.kind !== "error") return [];
        return [
          {
            key: String(call.callId),
            server: call.server,
            tool: call.tool,
            args: call.args,
            ...(outcome.kind === "value" ? { value: outcome.value } : { error: outcome.error }),
            label: `${call.namespace}.${call.name} (call #${call.callId})`,
          },
        ];
      });
    }
    const classic = view.catalog.classicTools.find((t) => t.name === toolName);
    if (!classic || !hasApp(classic.server, classic.tool) || (output === undefined && errorText === undefined)) return [];
    return [
      {
        key: toolCallId,
        server: classic.server,
        tool: classic.tool,
        args: input,
        ...(errorText !== undefined ? { error: errorText } : { value: output }),
        label: `${classic.namespace}.${classic.fn}`,
      },
    ];
  }, [view, history, runId, toolName, toolCallId, input, output, errorText]);
  if (calls.length === 0) return null;
  return (
    <details className={styles.chatApps} aria-label="Apps of this tool call" data-testid="chat-apps" open={calls.length <= 2}>
      <summary>{calls.length === 1 ? "1 call" : `${calls.length} calls`} with an MCP App</summary>
      {calls.map((call) => (
        <div key={call.key} className={styles.chatApp}>
          <CallApp
            conversation
            label={call.label}
            server={call.server}
            tool={call.tool}
            args={call.args}
            value={call.value}
            {...(call.error !== undefined ? { error: call.error } : {})}
          />
        </div>
      ))}
    </details>
  );
}
