"use client";

import { useEffect, useRef } from "react";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { useAppHost } from "@/components/hooks/use-app-host";
import type { AppHostState } from "@/lib/mcp-apps/app-host";
import type { AppRequest } from "@/lib/mcp-apps/app-requests";
import type { AppResource } from "@/lib/mcp-apps/app-resource";
import { useStore } from "@/components/hooks/use-store";
import styles from "./AppView.module.css";

export interface AppViewProps {
  /** The server as registered. */
  server: string;
  /** The tool whose app this is. */
  tool: Tool;
  input: Record<string, unknown>;
  /** The tool's result; absent while it runs. */
  result?: CallToolResult;
  /** The app is in the chat: its messages and context may reach the conversation, once the person allows each. */
  conversation?: boolean;
  /** The app as a recorded run kept it (lib/mcp-apps/recorded-app.ts): shown without reading the server. */
  resource?: AppResource;
}

const NO_REQUESTS: readonly AppRequest[] = [];
const LOADING: AppHostState = { load: { state: "loading" }, open: true, status: "starting", log: [] };

/**
 * A tool's MCP App (docs/mcp-apps.md, "MCP Apps"): the page's `AppHost` (lib/mcp-apps/app-host.ts)
 * reads its `ui://` resource, answers what it asks by the host's rules and keeps its log; this
 * view shows that state, mounts the frame (lib/mcp-apps/browser/app-frame.ts) into its box, and
 * puts what the app asks beside it for the person. Closing tears it down; "Show again" mounts it anew.
 */
export function AppView({ server, tool, input, result, conversation = false, resource }: AppViewProps) {
  // One host per view: the tool, its input and where it shows are fixed for a view's life.
  const host = useAppHost({ server, tool, input, conversation, ...(resource ? { resource } : {}) });
  const { load, open, status, log } = useStore(host, undefined, { fallback: LOADING });
  const pending = useStore(host.requests, undefined, { fallback: NO_REQUESTS });
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    host.setResult(result);
  }, [host, result]);

  useEffect(() => {
    if (load.state !== "ready" || !open || !box.current) return;
    return host.mount(box.current, () => import("@/lib/mcp-apps/browser/app-frame").then((frame) => frame.mountApp));
  }, [host, load, open]);

  if (!host.uri) return null;
  return (
    <section className={styles.appView} aria-label={`App of ${tool.name}`} data-testid="mcp-app">
      <div className={styles.header}>
        <b>App</b>
        <code className={styles.uri}>{host.uri}</code>
        <span className="muted" data-testid="mcp-app-status">
          {load.state === "ready" ? (open ? status : "closed") : load.state}
        </span>
        <span className="spacer" />
        {open ? (
          <button type="button" onClick={() => host.close()} disabled={load.state !== "ready"}>
            Close app
          </button>
        ) : (
          <button type="button" onClick={() => host.reopen()}>
            Show again
          </button>
        )}
      </div>
      {load.state === "failed" && (
        <div className="error-box" role="alert">
          {load.message}
        </div>
      )}
      {pending.map((request) => (
        <div key={request.id} className={styles.request} role="alertdialog" aria-label={request.title}>
          <div>
            <b>The app asks:</b> {request.title}
          </div>
          <pre className={styles.detail}>{request.detail}</pre>
          <div className="toolbar">
            <button type="button" className="primary" onClick={() => host.requests.decide(request.id, true)}>
              Allow
            </button>
            <button type="button" onClick={() => host.requests.decide(request.id, false)}>
              Deny
            </button>
          </div>
        </div>
      ))}
      {/* Stays in the document after Close: the frame must live until the app has been told it is torn down (app-frame.ts removes it). */}
      {load.state === "ready" && <div ref={box} hidden={!open} className={load.app.prefersBorder === false ? styles.frameBare : styles.frame} />}
      {log.length > 0 && (
        <details className={styles.log}>
          <summary>App log ({log.length})</summary>
          <ol data-testid="mcp-app-log">
            {log.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
