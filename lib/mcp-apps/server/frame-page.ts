/**
 * GET /api/mcp-apps/frame: the sandbox proxy page an MCP App runs in (docs/mcp-apps.md,
 * "MCP Apps"). The page frames it; it tells the page it is ready
 * (`ui/notifications/sandbox-proxy-ready`), takes the app's HTML from the page once
 * (`ui/notifications/sandbox-resource-ready`), puts it in a child frame (`srcdoc`, so the app
 * inherits this response's policy), and relays messages between the page and that child, and
 * nothing else: a message from any other window is dropped. The policy comes from
 * frame-policy.ts with the origins the query declares, checked again here.
 */
import "server-only";
import { cspFromQuery, framePolicy } from "../frame-policy";

// The relay. Plain script, inline (the policy allows inline scripts: the app needs them too).
// It accepts the HTML once, and only from its parent; afterwards it only relays.
const RELAY = `(() => {
  const parent = window.parent;
  let app;
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source === parent) {
      if (data && data.method === "ui/notifications/sandbox-resource-ready") {
        if (app) return;
        const html = data.params && data.params.html;
        if (typeof html !== "string") return;
        app = document.createElement("iframe");
        app.setAttribute("sandbox", "allow-scripts allow-forms");
        app.setAttribute("title", "MCP App");
        app.srcdoc = html;
        document.body.appendChild(app);
        return;
      }
      if (app && app.contentWindow) app.contentWindow.postMessage(data, "*");
    } else if (app && event.source === app.contentWindow) {
      parent.postMessage(data, "*");
    }
  });
  parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
})();`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>${RELAY}</script></body></html>`;

/** The frame page for a request (its query holds the declared origins). */
export function frameResponse(request: Request): Response {
  const url = new URL(request.url);
  const policy = framePolicy(cspFromQuery(url.searchParams, url.origin));
  return new Response(PAGE, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policy,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "same-origin",
    },
  });
}
