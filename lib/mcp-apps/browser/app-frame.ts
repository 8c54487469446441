/**
 * Mounts one MCP App in the page (docs/mcp-apps.md, "MCP Apps"), on the extension's own host
 * bridge (`AppBridge` and `PostMessageTransport` from `@modelcontextprotocol/ext-apps`): a frame
 * of /api/mcp-apps/frame (an opaque origin under the policy the app declared), the app's HTML
 * handed to it once it says it is ready, the tool's input and result delivered once the app has
 * initialised, its height followed, and everything it asks of the host answered through `host` (the view's AppHost, app-host.ts).
 * Only messages from that frame reach the bridge, and at most `maxMessagesPerSecond` of them:
 * past that the app is cut off. This module loads when the first app shows (it brings the
 * bridge's schemas with it), never on the page's start path.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostCapabilities, McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { FloodGate } from "../flood";
import { frameQuery } from "../frame-policy";
import type { MountedApp, MountOptions } from "../app-host";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { messageOf } from "../../text/error-message";

const HOST_INFO = { name: "code-mode-playground", version: "0.1.0" };
const TEARDOWN_GRACE_MS = 500;

export async function mountApp(options: MountOptions): Promise<MountedApp> {
  const { container, html, csp, tool, input, host } = options;
  const maxHeight = options.maxHeight ?? 640;
  const frame = document.createElement("iframe");
  // The frame page's own policy sandboxes it too (frame-policy.ts); this attribute says the same
  // for the frame element, so no popups, no top navigation, no same-origin access either way.
  frame.setAttribute("sandbox", "allow-scripts allow-forms");
  frame.setAttribute("referrerpolicy", "no-referrer");
  frame.setAttribute("allow", "");
  frame.setAttribute("title", `App of ${tool.name}`);
  frame.style.cssText = "display:block;width:100%;border:0;height:120px";
  const query = frameQuery(csp);
  frame.src = `${options.framePath ?? "/api/mcp-apps/frame"}${query ? `?${query}` : ""}`;
  container.appendChild(frame);
  const source = frame.contentWindow;
  if (!source) throw new Error("The app's frame has no window.");

  const capabilities: McpUiHostCapabilities = {
    openLinks: {},
    serverTools: {},
    logging: {},
    sandbox: { csp: { connectDomains: [...csp.connect], resourceDomains: [...csp.resource], frameDomains: [...csp.frame] } },
    ...(host.message ? { message: { text: {} } } : {}),
    ...(host.updateContext ? { updateModelContext: { text: {} } } : {}),
  };
  const hostContext: McpUiHostContext = {
    theme: options.theme,
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { maxHeight },
    toolInfo: { tool },
    platform: "web",
  };
  const bridge = new AppBridge(null, HOST_INFO, capabilities, { hostContext });
  const abort = new AbortController();
  let closed = false;
  let initialized = false;
  let pendingResult: CallToolResult | undefined = options.result;

  // Counted before the bridge's transport parses anything: registered first, a message from
  // this frame past the cap stops here (stopImmediatePropagation) and the app is cut off.
  const gate = new FloodGate(options.maxMessagesPerSecond ?? 300);
  const guard = (event: MessageEvent) => {
    if (event.source !== source) return;
    if (gate.admit(performance.now())) return;
    event.stopImmediatePropagation();
    if (!closed) {
      host.onEvent({ kind: "cut-off", reason: `The app sent more than ${gate.max} messages in one second, so it was stopped.` });
      void close(false);
    }
  };
  window.addEventListener("message", guard);

  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html }).catch(report);
  };
  bridge.oninitialized = () => {
    initialized = true;
    host.onEvent({ kind: "initialized", ...(bridge.getAppVersion() ? { app: `${bridge.getAppVersion()!.name} ${bridge.getAppVersion()!.version}` } : {}) });
    void bridge.sendToolInput({ arguments: input }).catch(report);
    if (pendingResult) void bridge.sendToolResult(pendingResult).catch(report);
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height !== "number" || !Number.isFinite(height)) return;
    const px = Math.max(24, Math.min(maxHeight, Math.ceil(height)));
    frame.style.height = `${px}px`;
    host.onEvent({ kind: "size", height: px });
  };
  bridge.oncalltool = async (params, extra) => {
    const signal = AbortSignal.any([abort.signal, extra.mcpReq.signal]);
    return host.callTool(params.name, params.arguments, signal);
  };
  bridge.onopenlink = async ({ url }, extra) => {
    const allowed = await host.openLink(url, AbortSignal.any([abort.signal, extra.mcpReq.signal]));
    return allowed ? {} : { isError: true };
  };
  bridge.onmessage = async ({ content }, extra) => {
    if (!host.message) host.onEvent({ kind: "refused", what: "a message for the conversation (there is none here)" });
    const reached = host.message ? await host.message(content, AbortSignal.any([abort.signal, extra.mcpReq.signal])) : false;
    return reached ? {} : { isError: true };
  };
  bridge.onupdatemodelcontext = async ({ content, structuredContent }, extra) => {
    if (!host.updateContext) host.onEvent({ kind: "refused", what: "context for the model (there is no conversation here)" });
    const allowed = host.updateContext ? await host.updateContext(content, structuredContent, AbortSignal.any([abort.signal, extra.mcpReq.signal])) : false;
    if (!allowed) throw new Error("The host did not take this context into the conversation.");
    return {};
  };
  bridge.onloggingmessage = ({ level, data }) => {
    host.onEvent({ kind: "log", level, text: typeof data === "string" ? data : JSON.stringify(data) });
  };
  bridge.onrequestteardown = () => {
    host.onEvent({ kind: "teardown-requested" });
  };

  function report(error: unknown) {
    if (!closed) host.onEvent({ kind: "error", message: messageOf(error) });
  }

  async function close(politely: boolean): Promise<void> {
    if (closed) return;
    closed = true;
    // The app is told first and may still finish a call while it tears down; then whatever it
    // still waits for is cancelled.
    if (politely && initialized) {
      await Promise.race([bridge.teardownResource({}).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TEARDOWN_GRACE_MS))]);
    }
    abort.abort(new Error("The app was closed."));
    window.removeEventListener("message", guard);
    await bridge.close().catch(() => undefined);
    frame.remove();
  }

  await bridge.connect(new PostMessageTransport(source, source));
  return {
    frame,
    deliverResult(result) {
      pendingResult = result;
      if (initialized && !closed) void bridge.sendToolResult(result).catch(report);
    },
    close: () => close(true),
  };
}
