/**
 * An MCP App's HTML from its `ui://` resource (docs/mcp-apps.md, "MCP Apps"): the content
 * item of the app's MIME type, as text or base64, with the origins its `_meta.ui.csp` declares
 * (checked by frame-policy.ts) and its border preference. Anything else is an error that says
 * what the server sent. Pure.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/client";
import { appCspFromMeta, type AppCsp } from "./frame-policy";
import { APP_MIME_TYPE } from "./tool-ui";

/** Largest app document accepted, in characters. */
export const MAX_APP_HTML = 4 * 1024 * 1024;

/** An app ready to mount. */
export interface AppResource {
  uri: string;
  html: string;
  csp: AppCsp;
  prefersBorder?: boolean;
}

function decodeBase64(blob: string): string {
  const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The app in a `resources/read` result, or a message saying why there is none. */
export function appResourceFrom(result: ReadResourceResult, uri: string, appOrigin?: string): AppResource | { error: string } {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const item = contents.find((c) => typeof c.mimeType === "string" && c.mimeType.replace(/\s/g, "").toLowerCase() === APP_MIME_TYPE) ?? contents[0];
  if (!item) return { error: `The server returned no content for ${uri}.` };
  const mime = typeof item.mimeType === "string" ? item.mimeType : "no MIME type";
  if (!mime.toLowerCase().startsWith("text/html")) return { error: `${uri} is ${mime}, not an app (${APP_MIME_TYPE}).` };
  let html: string;
  if ("text" in item && typeof item.text === "string") html = item.text;
  else if ("blob" in item && typeof item.blob === "string") {
    try {
      html = decodeBase64(item.blob);
    } catch {
      return { error: `${uri} has a blob that is not base64.` };
    }
  } else return { error: `${uri} has neither text nor blob.` };
  if (html.length > MAX_APP_HTML) return { error: `${uri} is ${html.length} characters; an app may have at most ${MAX_APP_HTML}.` };
  const ui = (item._meta as { ui?: { csp?: unknown; prefersBorder?: unknown } } | undefined)?.ui;
  return {
    uri,
    html,
    csp: appCspFromMeta(ui?.csp, appOrigin),
    ...(typeof ui?.prefersBorder === "boolean" ? { prefersBorder: ui.prefersBorder } : {}),
  };
}
