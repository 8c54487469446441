/**
 * Decides whether a request may reach the stdio bridge, which runs commands on this machine.
 * The decision is pure (`checkLocalRequest`); the facts it needs about the process (which
 * address the app listens on, the token, the opt-out) come in through `LocalGuardContext`.
 *
 * Who must be kept out, and what keeps them out:
 * - Other machines. The bridge exists only when every socket this process listens on at the
 *   request's port is bound to loopback (127.0.0.0/8, ::1). `next start` without `-H` binds
 *   all interfaces, so there the bridge is off: nothing a remote client sends (it can forge
 *   every header) can turn it on. There is deliberately no opt-in for non-loopback listening.
 *   A reverse proxy on the same host would defeat the listen check, so forwarded-for headers
 *   naming a non-loopback client are refused too (Next itself fills `x-forwarded-for` with
 *   the socket's remote address when absent).
 * - Foreign websites in the person's browser. They cannot read the token: the token endpoint
 *   answers only `Sec-Fetch-Site: same-origin` fetches, and even a response it did send carries
 *   no `Access-Control-Allow-Origin`, so the browser would not let the page read it. Without
 *   the token every bridge request is refused; the Origin check is a second wall.
 * - DNS rebinding (evil.example re-resolved to 127.0.0.1, which makes the page "same-origin"
 *   with the app): the browser still sends `Host: evil.example:<port>`, and only the loopback
 *   names localhost, 127.0.0.1 and [::1] pass the Host check.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { ipInCidr } from "./ip-ranges";
import { LOCAL_TOKEN_HEADER, STDIO_TOKEN_PATH } from "./stdio-protocol";

/** Set to 1 (or true) to turn the stdio bridge off even on loopback. */
export const DISABLE_STDIO_ENV = "CMP_DISABLE_STDIO";

/** Outcome of a guard check; `reason` is written for a person. */
export type LocalGuardResult = { ok: true } | { ok: false; reason: string };

/** Which endpoint is asking: the token endpoint, or the bridge itself (start and sessions). */
export type LocalRequestKind = "token" | "bridge";

/** What the guard needs to know about this process. */
export interface LocalGuardContext {
  disabled: boolean;
  /** The per-process token bridge requests must carry. */
  token: string;
  /** Addresses this process listens on at `port` (empty when none; undefined when unknowable). */
  listenAddresses(port: number): readonly string[] | undefined;
}

// The exact Host values a browser sends for a loopback app; no other 127.x aliases, no userinfo.
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/** True for 127.0.0.0/8 and ::1, in plain or IPv4-mapped form. */
export function isLoopbackAddress(address: string): boolean {
  return ipInCidr(address, "127.0.0.0/8") || ipInCidr(address, "::1/128");
}

/** Strips quotes, brackets and a port from one forwarded-for entry ("[::1]:80", "1.2.3.4:5"). */
function forwardedAddress(entry: string): string {
  const value = entry.trim().replace(/^"|"$/g, "");
  const bracketed = /^\[([^\]]+)\]/.exec(value);
  if (bracketed?.[1]) return bracketed[1];
  return /^[\d.]+:\d+$/.test(value) ? (value.split(":")[0] ?? "") : value;
}

/** Client addresses named by proxy headers: x-forwarded-for, x-real-ip and Forwarded's `for=`. */
function forwardedClients(headers: Headers): string[] {
  const out: string[] = [];
  for (const name of ["x-forwarded-for", "x-real-ip"]) {
    const value = headers.get(name);
    if (value !== null) out.push(...value.split(",").map(forwardedAddress));
  }
  const forwarded = headers.get("forwarded");
  if (forwarded !== null) {
    for (const match of forwarded.matchAll(/for=("[^"]*"|[^;,\s]+)/gi)) out.push(forwardedAddress(match[1] ?? ""));
  }
  return out;
}

function tokensEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(reason: string): LocalGuardResult {
  return { ok: false, reason };
}

/** Decides whether `request` may use the stdio bridge (or fetch its token). Pure. */
export function checkLocalRequest(request: Request, kind: LocalRequestKind, context: LocalGuardContext): LocalGuardResult {
  if (context.disabled) return refuse(`The stdio bridge is turned off (${DISABLE_STDIO_ENV}=1)`);
  const headers = request.headers;

  const host = (headers.get("host") ?? "").toLowerCase();
  const hostMatch = LOOPBACK_HOST.exec(host);
  if (!hostMatch) {
    return refuse(`The stdio bridge answers only on localhost, 127.0.0.1 or [::1], not on host "${host.slice(0, 100)}"`);
  }
  const port = Number(hostMatch[2] ?? "80");
  const listening = context.listenAddresses(port);
  if (listening === undefined || listening.length === 0) {
    return refuse(`Cannot confirm that the app listens only on loopback at port ${port}, so the stdio bridge stays off`);
  }
  const exposed = listening.find((address) => !isLoopbackAddress(address));
  if (exposed !== undefined) {
    return refuse(
      `The app listens on ${exposed} port ${port}, which other machines can reach; start it on loopback (next start -H 127.0.0.1) to use local stdio servers`,
    );
  }
  const remote = forwardedClients(headers).find((address) => !isLoopbackAddress(address));
  if (remote !== undefined) return refuse(`The request was forwarded for a non-loopback client (${remote.slice(0, 60)})`);

  // Same origin as the page that talks to us: the scheme is the app's own, the authority the Host.
  const origin = headers.get("origin");
  if (origin !== null && origin !== `http://${host}` && origin !== `https://${host}`) {
    return refuse(`Origin ${origin.slice(0, 100)} is not this app (${host})`);
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return refuse(`Only same-origin requests may use the stdio bridge (Sec-Fetch-Site: ${site.slice(0, 30)})`);

  if (kind === "token") {
    // Browsers send Sec-Fetch-Site on every fetch; no Origin on a same-origin GET, so it is the one to require.
    if (site === null) return refuse("The local token is given only to same-origin fetches from the app's page (Sec-Fetch-Site: same-origin)");
    return { ok: true };
  }
  // A same-origin GET (the SDK's SSE stream) carries no Origin; Sec-Fetch-Site vouches for it then.
  if (origin === null && site === null) return refuse("The stdio bridge needs an Origin header from the app's page");
  const token = headers.get(LOCAL_TOKEN_HEADER);
  if (token === null) return refuse(`Missing the ${LOCAL_TOKEN_HEADER} header (fetch it from ${STDIO_TOKEN_PATH})`);
  if (!tokensEqual(token, context.token)) return refuse(`Wrong ${LOCAL_TOKEN_HEADER} (the app was restarted? fetch a new one)`);
  return { ok: true };
}

/**
 * Addresses of the listening TCP servers in this process bound to `port`, read from Node's
 * handle list. Undocumented but long-stable API; when it is missing we return undefined and
 * the guard fails closed. Route handlers run in the process that owns the HTTP server in
 * `next start` and `next dev` alike, so the app's own socket is among them.
 */
export function processListenAddresses(port: number): string[] | undefined {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.();
  if (!Array.isArray(handles)) return undefined;
  const out: string[] = [];
  for (const handle of handles) {
    const server = handle as { listening?: unknown; address?: unknown };
    if (server?.listening !== true || typeof server.address !== "function") continue;
    const address = (server.address as () => unknown).call(server);
    if (address && typeof address === "object" && "port" in address && "address" in address && address.port === port) {
      out.push(String(address.address));
    }
  }
  return out;
}

const TOKEN_KEY = Symbol.for("code-mode-playground.stdio-local-token");

/**
 * The per-process local token (32 random bytes). Kept on globalThis because Next may load
 * this module once per route bundle; the token route and the bridge routes must agree.
 */
export function getLocalToken(): string {
  const holder = globalThis as unknown as Record<symbol, string | undefined>;
  holder[TOKEN_KEY] ??= randomBytes(32).toString("base64url");
  return holder[TOKEN_KEY];
}

/** The guard context for this process, reading the opt-out from `env` at call time. */
export function localGuardContext(env: Record<string, string | undefined> = process.env): LocalGuardContext {
  const flag = env[DISABLE_STDIO_ENV];
  return { disabled: flag === "1" || flag === "true", token: getLocalToken(), listenAddresses: processListenAddresses };
}
