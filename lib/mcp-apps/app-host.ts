/**
 * The host side of one MCP App view (docs/mcp-apps.md, "MCP Apps"), without React: it reads the
 * app's `ui://` resource (or takes the one a recorded run kept), mounts it through the frame
 * (browser/app-frame.ts, injected), and answers everything the app asks by the host's rules:
 *
 * - a tool call only to its own server, only while that server is connected, only of a tool
 *   visible to apps (app-calls.ts); through the page's host functions, so approvals, the
 *   server's cap and the timeline are a program's (`AppHostPage.callForApp`);
 * - a message for the conversation only in the chat, never while the chat is busy, and only when
 *   the person allows it; context for the model likewise;
 * - a link only over http or https, opened in a new tab without an opener when the person allows it;
 * - everything it logs kept as text, the last `MAX_APP_LOG` lines; an app the frame cut off for
 *   flooding has what it asked denied.
 *
 * Its state (loading, status, open, log) is a store the view reads; what the app asks waits in
 * `requests` (app-requests.ts) until the person answers. Pure: the page and the frame are injected.
 */
import type { CallToolResult, ContentBlock, ReadResourceResult, Tool } from "@modelcontextprotocol/client";
import { Store } from "../state/store";
import { messageOf } from "../text/error-message";
import { appCallRefusal } from "./app-calls";
import { AppRequests, type AppRequestKind } from "./app-requests";
import { appResourceFrom, type AppResource } from "./app-resource";
import type { AppCsp } from "./frame-policy";
import { toolResourceUri } from "./tool-ui";

/** What the frame asks of its host. Every string from the app is shown as text, never as markup. */
export interface FrameHost {
  /** The app's `tools/call` (the host checks visibility and asks for approval). */
  callTool: (name: string, args: Record<string, unknown> | undefined, signal: AbortSignal) => Promise<CallToolResult>;
  /** The app asks to open a link; resolves true when the person allowed it (the host opens it). */
  openLink: (url: string, signal: AbortSignal) => Promise<boolean>;
  /** `ui/message` (a message for the conversation); resolves true when it reached it. Absent: refused. */
  message?: (content: readonly ContentBlock[], signal: AbortSignal) => Promise<boolean>;
  /** `ui/update-model-context`; resolves true when the person allowed it. Absent: refused. */
  updateContext?: (content: readonly ContentBlock[] | undefined, structured: Record<string, unknown> | undefined, signal: AbortSignal) => Promise<boolean>;
  /** Something the view's log shows. */
  onEvent: (event: AppEvent) => void;
}

/** What happened in the app's life, for the view. */
export type AppEvent =
  | { kind: "initialized"; app?: string }
  | { kind: "size"; height: number }
  | { kind: "log"; level: string; text: string }
  | { kind: "teardown-requested" }
  | { kind: "cut-off"; reason: string }
  /** The app asked for something this view does not offer. */
  | { kind: "refused"; what: string }
  | { kind: "error"; message: string };

/** What the frame needs to mount an app. */
export interface MountOptions {
  container: HTMLElement;
  /** The app's HTML (the `ui://` resource's text). */
  html: string;
  /** The origins the resource declared, already checked (frame-policy.ts). */
  csp: AppCsp;
  tool: Tool;
  input: Record<string, unknown>;
  /** The tool's result; absent while the call runs (`deliverResult` later). */
  result?: CallToolResult;
  host: FrameHost;
  theme: "light" | "dark";
  /** Path of the frame page. Default /api/mcp-apps/frame. */
  framePath?: string;
  /** Tallest the frame grows, in CSS pixels. Default 640. */
  maxHeight?: number;
  /** Most messages the app may send in one second. Default 300. */
  maxMessagesPerSecond?: number;
}

/** A mounted app. */
export interface MountedApp {
  /** Hands the app the tool's result (when it was not known at mount). */
  deliverResult(result: CallToolResult): void;
  /** Tears the app down (it is told first, briefly) and removes the frame. */
  close(): Promise<void>;
  readonly frame: HTMLIFrameElement;
}

/** Mounts an app in a frame (browser/app-frame.ts's `mountApp`). */
export type MountApp = (options: MountOptions) => Promise<MountedApp>;

/** What the page does for an app view: its servers, its run machinery, its chat, the browser. */
export interface AppHostPage {
  /** Reads a resource from the server called `server`; rejects when it is not connected. */
  readResource(server: string, uri: string): Promise<ReadResourceResult>;
  /** Every tool the server lists now (app-only ones too), or undefined when it is not connected. */
  serverTools(server: string): readonly Tool[] | undefined;
  /** One call through the host functions a run's calls go through; `ask` asks the person when the call needs approval. */
  callForApp(
    server: string,
    name: string,
    args: Record<string, unknown> | undefined,
    options: { signal: AbortSignal; ask: (call: { args?: unknown }, signal: AbortSignal) => Promise<boolean> },
  ): Promise<CallToolResult>;
  /** Whether the chat is answering now (an app's message then waits for no one: it is refused). */
  chatBusy(): boolean;
  /** Sends a message to the conversation as the person's. */
  sendToChat(text: string): void;
  /** Puts context for the model's next message, under `key` (a newer one from the same app replaces it). */
  putContext(key: string, label: string, text: string): void;
  /** Opens a checked http(s) link in a new tab, without an opener. */
  openLink(url: string): void;
  /** The page's origin (an app's declared origins are checked against it). */
  readonly origin?: string;
}

export interface AppHostOptions {
  page: AppHostPage;
  /** The server as registered. */
  server: string;
  /** The tool whose app this is. */
  tool: Tool;
  input: Record<string, unknown>;
  /** The app is in the chat: its messages and context may reach the conversation, once the person allows each. */
  conversation?: boolean;
  /** The app as a recorded run kept it (recorded-app.ts): shown without reading the server. */
  resource?: AppResource;
}

export type AppLoad = { state: "loading" } | { state: "ready"; app: AppResource } | { state: "failed"; message: string };

export interface AppHostState {
  load: AppLoad;
  /** Whether the app is shown; Close and the app's own teardown request hide it. */
  open: boolean;
  status: "starting" | "running" | "cut off" | "failed";
  /** What the app did, as text, newest last. */
  log: readonly string[];
}

/** Lines the app's log keeps. */
export const MAX_APP_LOG = 50;

/** An app's content blocks as text (text blocks as they are, others named). */
function contentText(content: readonly ContentBlock[] | undefined): string {
  return (content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** The answer a refused call gets: an error result the app can show. */
function refusedCall(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export class AppHost extends Store<AppHostState> {
  /** What the app asks the person, waiting beside it. */
  readonly requests = new AppRequests();
  /** The tool's `ui://` resource, or undefined when it has none. */
  readonly uri: string | undefined;
  /** What the frame asks of the host, answered by the host's rules. */
  readonly frameHost: FrameHost;
  readonly #options: AppHostOptions;
  #result: CallToolResult | undefined;
  #mounted: MountedApp | undefined;
  #disposed = false;
  #reading: Promise<void> | undefined;

  constructor(options: AppHostOptions) {
    super({
      load: options.resource ? { state: "ready", app: options.resource } : { state: "loading" },
      open: true,
      status: "starting",
      log: [],
    });
    this.#options = options;
    this.uri = toolResourceUri(options.tool);
    this.frameHost = {
      onEvent: (event) => this.#onEvent(event),
      callTool: (name, args, signal) => this.#callTool(name, args, signal),
      openLink: (url, signal) => this.#openLink(url, signal),
      // Outside the chat an app's messages and context have nowhere to go: the frame refuses them.
      ...(options.conversation
        ? {
            message: (content, signal) => this.#message(content, signal),
            updateContext: (content, structured, signal) => this.#updateContext(content, structured, signal),
          }
        : {}),
    };
  }

  /**
   * Reads the app's resource from its server, unless a recorded one was given; one read however
   * often it is called. A view that mounts again after `dispose` (React's strict mode mounts every
   * view twice in development) takes the host back.
   */
  load(): Promise<void> {
    this.#disposed = false;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  async #read(): Promise<void> {
    const { page, server, resource } = this.#options;
    const uri = this.uri;
    if (resource || !uri) return;
    let load: AppLoad;
    try {
      const app = appResourceFrom(await page.readResource(server, uri), uri, page.origin);
      load = "error" in app ? { state: "failed", message: app.error } : { state: "ready", app };
    } catch (error) {
      load = { state: "failed", message: `Could not read ${uri}: ${messageOf(error)}` };
    }
    // Kept even while disposed: a view mounted again reads it.
    this.#update({ load });
  }

  /** The tool's result to hand the app: now when it is mounted, else when it mounts. */
  setResult(result: CallToolResult | undefined): void {
    if (result === this.#result) return;
    this.#result = result;
    if (result) this.#mounted?.deliverResult(result);
  }

  /**
   * Mounts the app in `container` (when it is loaded and open) with the frame `loadMount` gives;
   * returns what tears it down again. Whatever the app still asks is denied then.
   */
  mount(container: HTMLElement, loadMount: () => Promise<MountApp>): () => void {
    const { load, open } = this.snapshot();
    if (load.state !== "ready" || !open) return () => undefined;
    let gone = false;
    let app: MountedApp | undefined;
    this.#update({ status: "starting" });
    void loadMount()
      .then((mountApp) =>
        mountApp({
          container,
          html: load.app.html,
          csp: load.app.csp,
          tool: this.#options.tool,
          input: this.#options.input,
          ...(this.#result ? { result: this.#result } : {}),
          theme: "dark",
          host: this.frameHost,
        }),
      )
      .then(
        (mounted) => {
          if (gone) return void mounted.close();
          app = mounted;
          this.#mounted = mounted;
        },
        (error: unknown) => {
          if (gone) return;
          this.#update({ status: "failed" });
          this.#note(`could not start the app: ${messageOf(error)}`);
        },
      );
    return () => {
      gone = true;
      this.requests.denyAll();
      if (this.#mounted === app) this.#mounted = undefined;
      void app?.close();
    };
  }

  /** Hides the app (its frame is torn down by the view's unmount). */
  close(): void {
    this.#update({ open: false });
  }

  /** Shows the app again, mounted anew, with a fresh log. */
  reopen(): void {
    this.#update({ open: true, log: [] });
  }

  /** The view is gone: nothing it started reaches it, and whatever waits is denied. */
  dispose(): void {
    this.#disposed = true;
    this.requests.denyAll();
  }

  #onEvent(event: AppEvent): void {
    switch (event.kind) {
      case "initialized":
        this.#update({ status: "running" });
        this.#note(`initialized${event.app ? `: ${event.app}` : ""}`);
        break;
      case "size":
        break;
      case "log":
        this.#note(`log ${event.level}: ${event.text}`);
        break;
      case "teardown-requested":
        this.#note("the app asked to be closed");
        this.close();
        break;
      case "cut-off":
        this.#update({ status: "cut off" });
        this.#note(event.reason);
        this.requests.denyAll();
        break;
      case "error":
        this.#note(`error: ${event.message}`);
        break;
      case "refused":
        this.#note(`refused: ${event.what}`);
        break;
    }
  }

  async #callTool(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult> {
    const { page, server } = this.#options;
    const tools = page.serverTools(server);
    if (!tools) {
      const text = `${server} is not connected: this app shows a recorded run.`;
      this.#note(`refused call ${name}: ${text}`);
      return refusedCall(text);
    }
    const refusal = appCallRefusal(tools, name);
    if (refusal) {
      this.#note(`refused call ${name}: ${refusal}`);
      return refusedCall(refusal);
    }
    this.#note(`call ${name} ${JSON.stringify(args ?? {})}`);
    const answer = await page.callForApp(server, name, args, {
      signal,
      ask: (call, asked) => this.#ask("call", `Call ${name}`, JSON.stringify(call.args ?? {}, null, 2), asked),
    });
    this.#note(`${name} answered${answer.isError ? ` with an error: ${answer.content.map((c) => (c.type === "text" ? c.text : c.type)).join(" ")}` : ""}`);
    return answer;
  }

  async #message(content: readonly ContentBlock[], signal: AbortSignal): Promise<boolean> {
    const text = contentText(content);
    if (text.trim() === "") return false;
    if (this.#options.page.chatBusy()) {
      this.#note("the conversation is busy, so the app's message was not sent");
      return false;
    }
    const allowed = await this.#ask("message", "Send this message to the conversation", text, signal);
    this.#note(allowed ? "sent a message to the conversation" : "did not send its message");
    if (allowed) this.#options.page.sendToChat(text);
    return allowed;
  }

  async #updateContext(content: readonly ContentBlock[] | undefined, structured: Record<string, unknown> | undefined, signal: AbortSignal): Promise<boolean> {
    const text = [contentText(content), structured === undefined ? "" : JSON.stringify(structured, null, 2)].filter(Boolean).join("\n");
    if (text.trim() === "") return false;
    const allowed = await this.#ask("context", "Give the model this context with your next message", text, signal);
    this.#note(allowed ? "its context goes with your next message" : "its context was not taken");
    const { page, server, tool } = this.#options;
    if (allowed) page.putContext(`${server}\u0000${tool.name}`, `the app of ${server}.${tool.name}`, text);
    return allowed;
  }

  async #openLink(url: string, signal: AbortSignal): Promise<boolean> {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
      this.#note(`refused to open ${url}: only http and https links open`);
      return false;
    }
    const allowed = await this.#ask("link", "Open a link in a new tab", parsed.href, signal);
    this.#note(`${allowed ? "opened" : "did not open"} ${parsed.href}`);
    if (allowed) this.#options.page.openLink(parsed.href);
    return allowed;
  }

  /** Asks the person, unless the view is gone or the app was cut off (denied at once). */
  #ask(kind: AppRequestKind, title: string, detail: string, signal: AbortSignal): Promise<boolean> {
    if (this.#disposed || this.snapshot().status === "cut off") return Promise.resolve(false);
    return this.requests.ask(kind, title, detail, signal);
  }

  #note(line: string): void {
    if (this.#disposed) return;
    this.#update({ log: [...this.snapshot().log.slice(-(MAX_APP_LOG - 1)), line] });
  }

  #update(change: Partial<AppHostState>): void {
    this.set({ ...this.snapshot(), ...change });
  }
}
