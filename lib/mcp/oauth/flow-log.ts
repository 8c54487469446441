/**
 * The OAuth flow view's record: every step of a server's authorization (the challenge,
 * discovery, registration, the authorization redirect, token, refresh, revocation) with its
 * request and response, secrets masked, and what failed in plain words. `recordingFetch` wraps
 * the fetch the SDK's `auth()` uses and names each request by what it is. Pure.
 */
import { Store, type ReadableStore } from "../../state/store";
import { isSecretKey, REDACTED, redactHeaders, redactSecrets } from "../../secrets/redact";
import { removeSecrets } from "../../secrets/patterns";
import type { FetchLike } from "../proxy/proxy-fetch";
import { messageOf } from "../../text/error-message";

/** What a step is. */
export type FlowStepKind =
  "challenge" | "resource-metadata" | "server-metadata" | "registration" | "authorization" | "token" | "refresh" | "revocation" | "other";

/** One step as the flow view shows it. */
export interface FlowStep {
  kind: FlowStepKind;
  /** Short title: "Protected resource metadata". */
  title: string;
  at: number;
  durationMs?: number;
  request?: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body?: string };
  /** Did it do what the flow needed? Discovery probes that 404 before one answers are `ok: false, optional: true`. */
  ok: boolean;
  /** A failed probe the flow goes on from (one of several well-known URLs). */
  optional?: boolean;
  /** What went wrong and what to do, in plain words. */
  error?: string;
  /** A note: "the popup was blocked; continuing in this window". */
  note?: string;
}

/** A server's steps, newest last: a store (lib/state/store.ts) whose snapshot is the steps. */
export interface FlowLog extends ReadableStore<readonly FlowStep[]> {
  readonly steps: readonly FlowStep[];
  add(step: FlowStep): void;
  clear(): void;
}

const MAX_STEPS = 60;
const MAX_BODY = 4_000;

// Form and query parameters that carry a secret whatever isSecretKey says of their name.
const SECRET_PARAMS = new Set(["code", "code_verifier", "client_secret", "assertion", "client_assertion", "subject_token", "token"]);

class StoredFlowLog extends Store<readonly FlowStep[]> implements FlowLog {
  constructor() {
    super(Object.freeze([]));
  }

  get steps(): readonly FlowStep[] {
    return this.snapshot();
  }

  add(step: FlowStep): void {
    const next = [...this.snapshot(), Object.freeze({ ...step })];
    this.set(Object.freeze(next.length > MAX_STEPS ? next.slice(next.length - MAX_STEPS) : next));
  }

  clear(): void {
    this.set(Object.freeze([]));
  }
}

/** A new, empty log. */
export function createFlowLog(): FlowLog {
  return new StoredFlowLog();
}

function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.has(name) || isSecretKey(name);
}

/** A URL with secret query parameters masked ("code=[redacted]"). */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return removeSecrets(url);
  }
  for (const name of [...parsed.searchParams.keys()]) if (isSecretParam(name)) parsed.searchParams.set(name, REDACTED);
  return parsed.href;
}

/** A request or response body with secrets masked: JSON by key, forms by parameter, text by shape. */
export function maskBody(body: string, contentType: string): string {
  let out: string;
  if (contentType.includes("json")) {
    try {
      out = JSON.stringify(redactSecrets(maskJsonParams(JSON.parse(body) as unknown)), null, 2);
    } catch {
      out = removeSecrets(body);
    }
  } else if (contentType.includes("x-www-form-urlencoded")) {
    const params = new URLSearchParams(body);
    for (const name of [...params.keys()]) if (isSecretParam(name)) params.set(name, REDACTED);
    out = decodeURIComponent(params.toString().replaceAll("+", " "));
  } else {
    out = removeSecrets(body);
  }
  return out.length > MAX_BODY ? `${out.slice(0, MAX_BODY)}…` : out;
}

function maskJsonParams(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = SECRET_PARAMS.has(key) ? REDACTED : maskJsonParams(entry);
  return out;
}

function bodyText(body: RequestInit["body"]): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  return "[body]";
}

/** Names a request `auth()` makes by its URL and body. */
export function classifyRequest(url: URL, method: string, body: string | undefined): { kind: FlowStepKind; title: string } {
  const path = url.pathname;
  if (path.includes("/.well-known/oauth-protected-resource")) return { kind: "resource-metadata", title: "Protected resource metadata (RFC 9728)" };
  if (path.includes("/.well-known/oauth-authorization-server")) return { kind: "server-metadata", title: "Authorization server metadata (RFC 8414)" };
  if (path.includes("/.well-known/openid-configuration")) return { kind: "server-metadata", title: "OpenID Connect discovery" };
  if (method === "POST" && body !== undefined) {
    const grant = new URLSearchParams(body).get("grant_type");
    if (grant === "authorization_code") return { kind: "token", title: "Token (authorization code + PKCE)" };
    if (grant === "refresh_token") return { kind: "refresh", title: "Token refresh" };
    if (grant) return { kind: "token", title: `Token (${grant})` };
    if (body.trimStart().startsWith("{") && body.includes("redirect_uris")) return { kind: "registration", title: "Dynamic client registration (RFC 7591)" };
    if (new URLSearchParams(body).has("token")) return { kind: "revocation", title: "Token revocation (RFC 7009)" };
  }
  return { kind: "other", title: `${method} ${url.pathname}` };
}

/** Plain words for a failed OAuth response. */
export function explainFailure(kind: FlowStepKind, status: number, body: string): string {
  let oauthError = "";
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === "string")
      oauthError = typeof parsed.error_description === "string" ? `${parsed.error}: ${parsed.error_description}` : parsed.error;
  } catch {
    // Not JSON: the status says enough.
  }
  const said = oauthError ? ` (${removeSecrets(oauthError).slice(0, 300)})` : "";
  switch (kind) {
    case "resource-metadata":
    case "server-metadata":
      return status === 404 ? `Not published here (HTTP 404); the next well-known location is tried.` : `HTTP ${status}${said}.`;
    case "registration":
      return `The authorization server refused to register this client (HTTP ${status})${said}. Enter a client id it knows (pre-registered) in the server's OAuth settings.`;
    case "token":
      return `The token endpoint refused the authorization code (HTTP ${status})${said}. Restart the flow; if it keeps failing, check the client id and secret.`;
    case "refresh":
      return `The refresh token was refused (HTTP ${status})${said}; signing in again is needed.`;
    default:
      return `HTTP ${status}${said}.`;
  }
}

/** Wraps `fetch` so every request lands in `log` as a step (secrets masked). */
export function recordingFetch(fetch: FetchLike, log: FlowLog, now: () => number = Date.now): FetchLike {
  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input.href);
    const method = (init?.method ?? "GET").toUpperCase();
    const body = bodyText(init?.body);
    const { kind, title } = classifyRequest(url, method, body);
    const requestType = new Headers(init?.headers).get("content-type") ?? "";
    const request = {
      method,
      url: maskUrl(url.href),
      headers: redactHeaders(new Headers(init?.headers)),
      ...(body !== undefined ? { body: maskBody(body, requestType) } : {}),
    };
    const started = now();
    const step = (rest: Pick<FlowStep, "ok" | "response" | "optional" | "error">) =>
      log.add({ kind, title, at: started, durationMs: now() - started, request, ...rest });
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      step({ ok: false, error: `No answer: ${removeSecrets(messageOf(error))}` });
      throw error;
    }
    const text = await response
      .clone()
      .text()
      .catch(() => "");
    const discovery = kind === "resource-metadata" || kind === "server-metadata";
    step({
      response: { status: response.status, headers: redactHeaders(response.headers), body: maskBody(text, response.headers.get("content-type") ?? "") },
      ok: response.ok,
      ...(discovery && !response.ok ? { optional: true } : {}),
      ...(response.ok ? {} : { error: explainFailure(kind, response.status, text) }),
    });
    return response;
  };
}
