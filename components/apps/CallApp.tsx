"use client";

import { useMemo, useState } from "react";
import type { Tool } from "@modelcontextprotocol/client";
import { useStore } from "@/components/hooks/use-store";
import { usePageIfAny } from "@/components/playground/page-context";
import { resultForApp } from "@/lib/mcp-apps/app-result";
import { toolResourceUri } from "@/lib/mcp-apps/tool-ui";
import type { ServersView } from "@/lib/playground/page-servers";
import type { Playground } from "@/lib/playground/playground";
import type { HistoryEntry } from "@/lib/timeline/history";
import { appKey, readRecordedApp, type RecordedApp } from "@/lib/mcp-apps/recorded-app";
import { AppView } from "./AppView";

export interface CallAppProps {
  /** The server and tool as registered (not the names the code used). */
  server: string | undefined;
  tool: string | undefined;
  args: unknown;
  value?: unknown;
  error?: string;
  /** Mount at once (the person just made the call) rather than on "Show app". */
  open?: boolean;
  /** What the line beside "Show app" says; default "<tool> has an MCP App". */
  label?: string;
  /** The app is in the chat (AppViewProps.conversation). */
  conversation?: boolean;
}

const NO_CONNECTED: ServersView["connected"] = [];
const NO_HISTORY: readonly HistoryEntry[] = [];

/** The app of `server`'s `tool` as the newest run in the history kept it, read back strictly. */
export function recordedAppIn(history: readonly HistoryEntry[], server: string, tool: string): RecordedApp | undefined {
  const key = appKey(server, tool);
  for (const entry of history) {
    const kept = entry.record.apps?.[key];
    const app = kept === undefined ? undefined : readRecordedApp(kept, typeof window === "undefined" ? undefined : window.location.origin);
    if (app) return app;
  }
  return undefined;
}

/**
 * The MCP App of one call made elsewhere (a program's call on the timeline, a chat's call), when
 * its tool has one: from its server when connected, else as the newest run in the history kept it
 * (a replay, an imported run, a shared link; its calls then fail as not connected). "Show app"
 * mounts it with the call's arguments and its result as the page kept it (lib/mcp-apps/app-result.ts).
 */
export function CallApp(props: CallAppProps) {
  const page = usePageIfAny();
  return page ? <PageCallApp {...props} playground={page.playground} /> : null;
}

function PageCallApp({ server, tool, args, value, error, open = false, label, conversation = false, playground }: CallAppProps & { playground: Playground }) {
  const connected = useStore(playground.servers.view, (v) => v.connected, { fallback: NO_CONNECTED });
  const [shown, setShown] = useState(open);
  // One result per call: a new object would be handed to the app again (AppView delivers each new result).
  const result = useMemo(() => resultForApp({ value, ...(error !== undefined ? { error } : {}) }), [value, error]);
  const history = useStore(playground.workbench.history, undefined, { fallback: NO_HISTORY });
  const entry = connected.find((s) => s.config.name === server);
  const live: Tool | undefined = entry?.tools.find((t) => t.name === tool);
  // Not connected (a replay, an imported run, a shared link): the app as the newest run kept it.
  const found = live !== undefined;
  const recorded = useMemo(
    () => (found || server === undefined || tool === undefined ? undefined : recordedAppIn(history, server, tool)),
    [found, history, server, tool],
  );
  const definition: Tool | undefined = live ?? recorded?.tool;
  const uri = definition ? toolResourceUri(definition) : undefined;
  if (!definition || !uri || server === undefined) return null;
  if (!shown) {
    return (
      <div className="toolbar">
        <button type="button" onClick={() => setShown(true)} title={`Show the UI of ${tool} (${uri}) with this call's input and result`}>
          Show app
        </button>
        <span className="muted">{label ?? `${tool} has an MCP App`}</span>
      </div>
    );
  }
  const input = args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return (
    <AppView
      server={server}
      tool={definition}
      {...(recorded ? { resource: recorded.resource } : {})}
      input={input}
      result={result}
      conversation={conversation}
    />
  );
}
