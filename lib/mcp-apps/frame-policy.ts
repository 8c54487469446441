/**
 * The policy an MCP App runs under (docs/mcp-apps.md, "MCP Apps"). An app declares the
 * origins it needs in its resource's `_meta.ui.csp`; the page asks for its frame at
 * `/api/mcp-apps/frame?…` with those origins in the query, and the route answers the frame page
 * with a Content-Security-Policy header built here from them, after checking each is a plain
 * origin. The app's document is the frame page's `srcdoc` child, which inherits that policy.
 * Nothing is allowed that the app did not declare: no declaration, no network at all.
 * Pure.
 */

/** The origins an app declared, each list already checked. */
export interface AppCsp {
  /** fetch, XHR, WebSocket (`connect-src`). */
  connect: readonly string[];
  /** Images, scripts, styles, fonts, media from the network. */
  resource: readonly string[];
  /** Nested frames (`frame-src`). */
  frame: readonly string[];
}

/** Most origins kept per list. */
export const MAX_APP_ORIGINS = 16;

export const EMPTY_APP_CSP: AppCsp = Object.freeze({ connect: [], resource: [], frame: [] });

// A policy source the app may name: a scheme from the list, a host name (optionally with one
// leading "*." wildcard label), IPv4 or bracketed IPv6, an optional port. Nothing else: a ";" or
// "," would end a directive, a quote would add a keyword such as 'unsafe-eval'.
const SOURCE = /^(?:https|http|wss|ws):\/\/(?:(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** `text` as a policy source (lower-cased, trailing slash dropped), or undefined when it is anything but a plain origin. */
export function policySource(text: unknown): string | undefined {
  if (typeof text !== "string" || text.length > 300) return undefined;
  const source = text.trim().toLowerCase().replace(/\/$/, "");
  return SOURCE.test(source) ? source : undefined;
}

function sources(list: unknown, refuse: ReadonlySet<string>): string[] {
  if (!Array.isArray(list)) return [];
  const out = new Set<string>();
  for (const item of list) {
    const source = policySource(item);
    if (source !== undefined && !refuse.has(source)) out.add(source);
    if (out.size >= MAX_APP_ORIGINS) break;
  }
  return [...out];
}

/**
 * The origins in a resource's `_meta.ui.csp` (`connectDomains`, `resourceDomains`,
 * `frameDomains`), with anything that is not a plain origin dropped, and never `appOrigin`
 * (the playground itself: an app must not reach the playground's API, whatever it declares).
 */
export function appCspFromMeta(csp: unknown, appOrigin?: string): AppCsp {
  if (csp === null || typeof csp !== "object") return EMPTY_APP_CSP;
  const declared = csp as Record<string, unknown>;
  const refuse = new Set(appOrigin ? [appOrigin.toLowerCase()] : []);
  return {
    connect: sources(declared.connectDomains, refuse),
    resource: sources(declared.resourceDomains, refuse),
    frame: sources(declared.frameDomains, refuse),
  };
}

/** The frame page's query for a policy. */
export function frameQuery(csp: AppCsp): string {
  const params = new URLSearchParams();
  for (const source of csp.connect) params.append("connect", source);
  for (const source of csp.resource) params.append("resource", source);
  for (const source of csp.frame) params.append("frame", source);
  return params.toString();
}

/** The policy a frame page's query asks for, checked again (the query is anyone's to write). */
export function cspFromQuery(params: URLSearchParams, appOrigin: string): AppCsp {
  return appCspFromMeta(
    { connectDomains: params.getAll("connect"), resourceDomains: params.getAll("resource"), frameDomains: params.getAll("frame") },
    appOrigin,
  );
}

/**
 * The frame page's Content-Security-Policy.
 * - `sandbox allow-scripts allow-forms`: the page and the app inside it always run in an opaque
 *   origin, however they are opened or framed: no cookies, no storage, no access to any other
 *   window of this origin; no popups, no top navigation.
 * - Scripts and styles inline (an app is one HTML document), plus the declared resource origins;
 *   no eval; `data:` and `blob:` images and fonts.
 * - `connect-src` only the declared origins, `frame-src` only the declared frames, forms post nowhere.
 * - `frame-ancestors 'self'`: only the playground may frame it.
 */
export function framePolicy(csp: AppCsp): string {
  const none = (list: readonly string[]) => (list.length ? [...list] : ["'none'"]);
  const directives: Array<[string, string[]]> = [
    ["default-src", ["'none'"]],
    ["script-src", ["'unsafe-inline'", ...csp.resource]],
    ["style-src", ["'unsafe-inline'", ...csp.resource]],
    ["img-src", ["data:", "blob:", ...csp.resource]],
    ["font-src", ["data:", ...csp.resource]],
    ["media-src", ["data:", "blob:", ...csp.resource]],
    ["connect-src", none(csp.connect)],
    ["frame-src", none(csp.frame)],
    ["worker-src", ["'none'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'none'"]],
    ["frame-ancestors", ["'self'"]],
    ["sandbox", ["allow-scripts", "allow-forms"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(" ")}`).join("; ");
}
