/**
 * The checks every route runs before doing anything, as one pure function:
 *
 * 1. **Host** must be a name this instance serves (deployment.ts). A DNS-rebound page
 *    (evil.example re-resolved to 127.0.0.1) is "same-origin" with the app in the browser's
 *    eyes, but its requests still say `Host: evil.example`, and a browser cannot forge Host.
 * 2. **Origin** on state-changing requests (anything but GET, HEAD, OPTIONS) must be this very
 *    app, scheme and port included; browsers always send it on such requests. A plain HTTP
 *    client can forge it, so it is a second wall behind the Host check and the tokens, never
 *    the first. Routes meant for any origin (the demo MCP servers, which answer CORS) opt out.
 * 3. **Content type**: bodies must be JSON. A cross-site `text/plain` POST is a "simple"
 *    request that skips the CORS preflight; requiring JSON forces the preflight, which fails.
 *    The MCP proxy also takes `application/x-www-form-urlencoded` (`json: "or-form"`): OAuth
 *    token and revocation endpoints accept nothing else, and a cross-site form could still not
 *    reach it, since it must carry the `x-mcp-target` header (which no form can set) and pass the
 *    Origin check above.
 */
import "server-only";
import { normaliseHostName } from "./deployment";
import { RouteError } from "../route-error";
import type { RouteSurface } from "../route-error";

/** What a route expects of its requests. */
export interface RouteRules<S extends RouteSurface = RouteSurface> {
  surface: S;
  /** "same" (default): state-changing requests must come from this app. "any": public endpoints. */
  origin?: "same" | "any";
  /** Require a JSON content type on requests with a body (true, the default), or JSON or a form ("or-form"). */
  json?: boolean | "or-form";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const JSON_TYPE = /^application\/(?:json|[\w.+-]+\+json)\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** True when a request with this method may change state. */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The refusal for `request`, or undefined when it may proceed. */
export function checkRequest<S extends RouteSurface>(request: Request, allowed: ReadonlySet<string>, rules: RouteRules<S>): RouteError<S> | undefined {
  const { surface } = rules;
  // Node's HTTP server always has a Host (HTTP/1.1 requires it); a Request built in code may not.
  const host = request.headers.get("host") ?? new URL(request.url).host;
  const name = normaliseHostName(host);
  if (!allowed.has(name)) {
    return new RouteError<S>(
      `refused:${surface}`,
      `This server does not answer to the host name "${name.slice(0, 100)}" (DNS rebinding protection). An operator serving it under that name lists it in CMP_ALLOWED_HOSTS.`,
      { cause: "host" },
    );
  }
  if (!isStateChanging(request.method)) return undefined;

  if ((rules.origin ?? "same") === "same") {
    const refusal = checkSameApp(request.headers, host, surface);
    if (refusal) return refusal;
  }

  const hasBody = request.body !== null || Number(request.headers.get("content-length") ?? "0") > 0;
  if ((rules.json ?? true) && hasBody && request.method !== "DELETE") {
    const type = request.headers.get("content-type") ?? "";
    const form = rules.json === "or-form" && FORM_TYPE.test(type);
    if (!JSON_TYPE.test(type) && !form) {
      const wanted = rules.json === "or-form" ? "application/json or application/x-www-form-urlencoded" : "application/json";
      return new RouteError<S>(`unsupported_media_type:${surface}`, `Send the body as ${wanted}, not "${type.slice(0, 60) || "no content type"}".`);
    }
  }
  return undefined;
}

/** The refusal of a request that does not come from this app's own page (Origin, Sec-Fetch-Site), or undefined. */
function checkSameApp<S extends RouteSurface>(headers: Headers, host: string, surface: S): RouteError<S> | undefined {
  const origin = headers.get("origin");
  if (origin === null)
    return new RouteError<S>(`refused:${surface}`, "This request must come from the playground's own page (no Origin header).", { cause: "origin" });
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  const sameApp = parsed !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.host === host.toLowerCase();
  if (!sameApp)
    return new RouteError<S>(`refused:${surface}`, `Requests from ${origin.slice(0, 100)} are refused: only the playground's own page may do this.`, {
      cause: "origin",
    });
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin")
    return new RouteError<S>(`refused:${surface}`, `Cross-site requests are refused (Sec-Fetch-Site: ${site.slice(0, 30)}).`, { cause: "origin" });
  return undefined;
}

/**
 * The refusal for a WebSocket upgrade to the page's channel, or undefined. A browser lets any
 * site open a WebSocket to any host and sends no preflight, so the upgrade must name an allowed
 * Host and come from this app's own page (Origin, which browsers always send on an upgrade):
 * a foreign page's upgrade is refused here (cross-site WebSocket hijacking). Every request the
 * channel carries then passes its route's own guard as well (docs/channel.md, "The channel").
 */
export function checkUpgrade(headers: Headers, allowed: ReadonlySet<string>): RouteError<"channel"> | undefined {
  const host = headers.get("host") ?? "";
  const name = normaliseHostName(host);
  if (host === "" || !allowed.has(name)) {
    return new RouteError("refused:channel", `This server does not answer to the host name "${name.slice(0, 100)}" (DNS rebinding protection).`, {
      cause: "host",
    });
  }
  return checkSameApp(headers, host, "channel");
}
