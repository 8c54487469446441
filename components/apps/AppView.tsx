"use client";

import { useEffect, useRef, useState } from "react";
import type { CallToolResult, ContentBlock, Tool } from "@modelcontextprotocol/client";
import { chatBusy } from "@/lib/model/chat-session";
import type { McpConnection } from "@/lib/mcp/live-connection";
import { appCallRefusal } from "@/lib/mcp-apps/app-calls";
import { usePage } from "@/components/playground/page-context";
import { AppRequests } from "@/lib/mcp-apps/app-requests";
import { appResourceFrom, type AppResource } from "@/lib/mcp-apps/app-resource";
import type { AppEvent, MountedApp } from "@/lib/mcp-apps/browser/app-frame";
import { toolResourceUri } from "@/lib/mcp-apps/tool-ui";
import { useStore } from "@/components/hooks/use-store";
import styles from "./AppView.module.css";
import { messageOf } from "@/lib/text/error-message";

export interface AppViewProps {
  /** The server as registered. */
  server: string;
  /** The server's connection: the app's resource is read through it. */
  connection: McpConnection | undefined;
  /** Every tool the server listed, app-only ones included (what the app may call). */
  serverTools: readonly Tool[];
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

type Load = { state: "loading" } | { state: "ready"; app: AppResource } | { state: "failed"; message: string };

const MAX_LOG = 50;

/** An app's content blocks as text (text blocks as they are, others named). */
function contentText(content: readonly ContentBlock[] | undefined): string {
  return (content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}
const NO_REQUESTS: ReturnType<AppRequests["snapshot"]> = [];

/**
 * A tool's MCP App (docs/mcp-apps.md, "MCP Apps"): its `ui://` resource read from the server
 * and mounted in a sandboxed frame (lib/mcp-apps/browser/app-frame.ts) with the tool's input and
 * result; what the app asks (a tool needing approval, a link) waits beside it for the person;
 * its calls and messages go to a log under it. Closing tears it down; "Show again" mounts it anew.
 */
export function AppView({ server, connection, serverTools, tool, input, result, conversation = false, resource }: AppViewProps) {
  const { playground } = usePage();
  const uri = toolResourceUri(tool);
  const [load, setLoad] = useState<Load>(() => (resource ? { state: "ready", app: resource } : { state: "loading" }));
  const [open, setOpen] = useState(true);
  const [log, setLog] = useState<string[]>([]);
  const [status, setStatus] = useState("starting");
  const [requests] = useState(() => new AppRequests());
  const pending = useStore(requests, undefined, { fallback: NO_REQUESTS });
  const box = useRef<HTMLDivElement>(null);
  const mounted = useRef<MountedApp | undefined>(undefined);
  // The latest props the app's callbacks read, without mounting the app again when they change.
  const live = useRef({ serverTools, result, connected: connection !== undefined });
  useEffect(() => {
    live.current = { serverTools, result, connected: connection !== undefined };
  });

  useEffect(() => {
    if (!uri || !connection || resource) return;
    let cancelled = false;
    connection.readResource(uri).then(
      (read) => {
        if (cancelled) return;
        const app = appResourceFrom(read, uri, window.location.origin);
        setLoad("error" in app ? { state: "failed", message: app.error } : { state: "ready", app });
      },
      (error: unknown) => {
        if (!cancelled) setLoad({ state: "failed", message: `Could not read ${uri}: ${messageOf(error)}` });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [uri, connection, resource]);

  useEffect(() => {
    if (load.state !== "ready" || !open || !box.current) return;
    const container = box.current;
    let disposed = false;
    let app: MountedApp | undefined;
    const note = (line: string) => setLog((lines) => [...lines.slice(-(MAX_LOG - 1)), line]);
    const onEvent = (event: AppEvent) => {
      switch (event.kind) {
        case "initialized":
          setStatus("running");
          note(`initialized${event.app ? `: ${event.app}` : ""}`);
          break;
        case "size":
          break;
        case "log":
          note(`log ${event.level}: ${event.text}`);
          break;
        case "teardown-requested":
          note("the app asked to be closed");
          setOpen(false);
          break;
        case "cut-off":
          setStatus("cut off");
          note(event.reason);
          break;
        case "error":
          note(`error: ${event.message}`);
          break;
        case "refused":
          note(`refused: ${event.what}`);
          break;
      }
    };
    setStatus("starting");
    void import("@/lib/mcp-apps/browser/app-frame")
      .then(({ mountApp }) =>
        mountApp({
          container,
          html: load.app.html,
          csp: load.app.csp,
          tool,
          input,
          ...(live.current.result ? { result: live.current.result } : {}),
          theme: "dark",
          host: {
            onEvent,
            async callTool(name, args, signal) {
              if (!live.current.connected) {
                const text = `${server} is not connected: this app shows a recorded run.`;
                note(`refused call ${name}: ${text}`);
                return { content: [{ type: "text", text }], isError: true };
              }
              const refusal = appCallRefusal(live.current.serverTools, name);
              if (refusal) {
                note(`refused call ${name}: ${refusal}`);
                return { content: [{ type: "text", text: refusal }], isError: true };
              }
              note(`call ${name} ${JSON.stringify(args ?? {})}`);
              // Through the host functions every call goes through, recorded on the timeline (Workbench.callForApp).
              const answer = await playground.workbench.callForApp(server, name, args, {
                signal,
                ask: (call, asked) => requests.ask("call", `Call ${name}`, JSON.stringify(call.args ?? {}, null, 2), asked),
              });
              note(`${name} answered${answer.isError ? ` with an error: ${answer.content.map((c) => (c.type === "text" ? c.text : c.type)).join(" ")}` : ""}`);
              return answer;
            },
            ...(conversation
              ? {
                  async message(content, signal) {
                    const text = contentText(content);
                    if (text.trim() === "") return false;
                    if (chatBusy(playground.chat.snapshot())) {
                      note("the conversation is busy, so the app's message was not sent");
                      return false;
                    }
                    const allowed = await requests.ask("message", "Send this message to the conversation", text, signal);
                    note(allowed ? "sent a message to the conversation" : "did not send its message");
                    if (allowed) void playground.chat.send(text);
                    return allowed;
                  },
                  async updateContext(content, structured, signal) {
                    const text = [contentText(content), structured === undefined ? "" : JSON.stringify(structured, null, 2)].filter(Boolean).join("\n");
                    if (text.trim() === "") return false;
                    const allowed = await requests.ask("context", "Give the model this context with your next message", text, signal);
                    note(allowed ? "its context goes with your next message" : "its context was not taken");
                    if (allowed) playground.appContexts.put(`${server}\u0000${tool.name}`, `the app of ${server}.${tool.name}`, text);
                    return allowed;
                  },
                }
              : {}),
            async openLink(url, signal) {
              let parsed: URL | undefined;
              try {
                parsed = new URL(url);
              } catch {
                parsed = undefined;
              }
              if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
                note(`refused to open ${url}: only http and https links open`);
                return false;
              }
              const allowed = await requests.ask("link", "Open a link in a new tab", parsed.href, signal);
              note(`${allowed ? "opened" : "did not open"} ${parsed.href}`);
              if (allowed) window.open(parsed.href, "_blank", "noopener,noreferrer");
              return allowed;
            },
          },
        }),
      )
      .then(
        (mountedApp) => {
          if (disposed) return void mountedApp.close();
          app = mountedApp;
          mounted.current = mountedApp;
        },
        (error: unknown) => {
          if (!disposed) {
            setStatus("failed");
            note(`could not start the app: ${messageOf(error)}`);
          }
        },
      );
    return () => {
      disposed = true;
      requests.denyAll();
      mounted.current = undefined;
      void app?.close();
    };
    // The app mounts once per resource and opening; input and tool are fixed for a view's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load, open, requests, playground, server, conversation]);

  useEffect(() => {
    if (result) mounted.current?.deliverResult(result);
  }, [result]);

  if (!uri) return null;
  return (
    <section className={styles.appView} aria-label={`App of ${tool.name}`} data-testid="mcp-app">
      <div className={styles.header}>
        <b>App</b>
        <code className={styles.uri}>{uri}</code>
        <span className="muted" data-testid="mcp-app-status">
          {load.state === "ready" ? (open ? status : "closed") : load.state}
        </span>
        <span className="spacer" />
        {open ? (
          <button type="button" onClick={() => setOpen(false)} disabled={load.state !== "ready"}>
            Close app
          </button>
        ) : (
          <button
            type="button"
            onClick={() => {
              setLog([]);
              setOpen(true);
            }}
          >
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
            <button type="button" className="primary" onClick={() => requests.decide(request.id, true)}>
              Allow
            </button>
            <button type="button" onClick={() => requests.decide(request.id, false)}>
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
