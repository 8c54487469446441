/**
 * OAuth 2.1 for one MCP server's transport, as the MCP authorization spec (2025-11-25)
 * describes it, built on the SDK's `auth()`: a fetch wrapper that sends the stored access
 * token, and on a 401 (or a 403 `insufficient_scope`, step-up) runs `auth()` with what the
 * challenge said (`resource_metadata`, `scope`). `auth()` discovers (RFC 9728, RFC 8414 and
 * OpenID discovery, with the 2025-03-26 fallbacks), registers (Client ID Metadata Document or
 * RFC 7591), refreshes, or builds the authorization URL (PKCE S256, `resource` per RFC 8707);
 * that URL goes to the injected `authorize` (the page's popup, or the headless authorizer),
 * whose code `auth()` exchanges. Then the request is sent again.
 *
 * Why a wrapper and not the transport's own `authProvider`: the transport throws on the
 * redirect and needs a new connection afterwards; here the connect (or the call) simply waits
 * while the person signs in, and a step-up in the middle of a run does not lose the run.
 * Limits: one authorization at a time per server (concurrent 401s share it), at most
 * MAX_AUTH_ROUNDS per request, and a repeated identical 403 challenge stops at once.
 * Pure; the fetches are injected.
 */
import type { auth } from "@modelcontextprotocol/client";
import type { FetchLike } from "../proxy/proxy-fetch";
import { loadMcpAuth } from "../sdk";
import { maskUrl, recordingFetch } from "./flow-log";
import type { FlowLog } from "./flow-log";
import { OAuthRefused, responseIssuerProblem } from "./provider";
import type { StoredOAuthProvider } from "./provider";
import { messageOf } from "../../text/error-message";

/** What the authorization redirect came back with. */
export interface AuthorizationResult {
  code: string;
  state: string | null;
  /** The authorization server's `iss` parameter (RFC 9207), or null when it sent none. */
  iss?: string | null;
}

/**
 * Sends the person to the authorization URL and resolves with what the callback received; rejects
 * when they refuse, close the window, or cannot be asked (AuthorizationNeeded).
 */
export type Authorizer = (authorizationUrl: URL) => Promise<AuthorizationResult>;

/** The person must act (sign in) before the flow can go on; the UI offers a "Sign in" button. */
export class AuthorizationNeeded extends Error {
  override readonly name = "AuthorizationNeeded";
}

/** The authorization failed: refused consent, a bad callback, a failing token endpoint. */
export class OAuthFlowError extends Error {
  override readonly name = "OAuthFlowError";
}

/** One server's OAuth wiring. */
export interface OAuthSession {
  provider: StoredOAuthProvider;
  /** The MCP server URL (the protected resource). */
  serverUrl: string;
  /** The fetch for discovery, registration and token requests (direct, or through the proxy). */
  authFetch: FetchLike;
  authorize: Authorizer;
  log: FlowLog;
  /**
   * What a sign-in that left this window brought back (the page's same-window fallback), taken
   * once; its code is exchanged before any new authorization starts.
   */
  takeReturned?: () => AuthorizationResult | undefined;
  now?: () => number;
}

const STATE_MISMATCH =
  "Signing in failed: the authorization callback carried a different `state` than this flow sent (a stale or forged callback). Start the sign-in again.";

/** Authorization rounds one request may start (401, then step-ups). */
export const MAX_AUTH_ROUNDS = 3;

function scopeUnion(...scopes: Array<string | undefined>): string | undefined {
  const all = new Set(scopes.flatMap((scope) => (scope ? scope.split(/\s+/).filter(Boolean) : [])));
  return all.size > 0 ? [...all].join(" ") : undefined;
}

type McpAuth = Awaited<ReturnType<typeof loadMcpAuth>>;
type AuthOptions = Parameters<typeof auth>[1];

/**
 * The SDK's `auth()`, with one rule of this client's: under MCP 2025-03-26's fallback (a server
 * with no protected resource metadata is its own authorization server, by origin) nobody named
 * an issuer, so the metadata's issuer is not held to that origin (`checkDiscovery` in provider.ts
 * keeps the same rule). The SDK checks it anyway; when it refuses there and the server publishes
 * no such metadata, the flow runs again without that one check. Where the metadata did name the
 * authorization server, a mismatch stops the flow, said in words.
 */
async function runAuth(sdk: McpAuth, provider: StoredOAuthProvider, options: AuthOptions): ReturnType<typeof auth> {
  try {
    return await sdk.auth(provider, options);
  } catch (error) {
    if (!(error instanceof sdk.IssuerMismatchError) || error.kind !== "metadata") throw error;
    const named = await sdk
      .discoverOAuthProtectedResourceMetadata(
        options.serverUrl,
        options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {},
        options.fetchFn,
      )
      .then(
        () => true,
        () => false,
      );
    if (named) {
      throw new OAuthRefused(
        `The authorization server metadata names the issuer ${String(error.received).slice(0, 200)}, but it was fetched for ${String(error.expected)}. RFC 8414 requires them to match; a mismatch means the metadata is not this server's (misconfigured, or forged), so the flow stopped.`,
        { cause: error },
      );
    }
    return sdk.auth(provider, { ...options, skipIssuerMetadataValidation: true });
  }
}

/** Runs `auth()` to the end once: refresh, or authorization through `authorize`, then the token exchange. */
async function authorizeOnce(session: OAuthSession, challenge: { resourceMetadataUrl?: URL; scope?: string }): Promise<void> {
  const { provider, log } = session;
  const now = session.now ?? Date.now;
  const options = {
    serverUrl: session.serverUrl,
    ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    ...(challenge.scope ? { scope: challenge.scope } : {}),
    fetchFn: recordingFetch(session.authFetch, log, now),
  };
  const fail = (error: unknown): never => {
    if (error instanceof AuthorizationNeeded || error instanceof OAuthFlowError || error instanceof OAuthRefused) {
      log.add({
        kind: "other",
        title: error instanceof AuthorizationNeeded ? "Waiting for sign-in" : "Flow stopped",
        at: now(),
        ok: false,
        error: error.message,
      });
      throw error;
    }
    const wrapped = new OAuthFlowError(`Signing in failed: ${messageOf(error)}`, { cause: error });
    log.add({ kind: "other", title: "Flow stopped", at: now(), ok: false, error: wrapped.message });
    throw wrapped;
  };
  let result: Awaited<ReturnType<typeof auth>>;
  let returned: AuthorizationResult | undefined;
  let sdk: McpAuth;
  try {
    sdk = await loadMcpAuth();
    returned = session.takeReturned?.();
  } catch (error) {
    return fail(error);
  }
  if (returned) {
    if (returned.state !== provider.expectedState()) {
      return fail(new OAuthFlowError(STATE_MISMATCH));
    }
    const issuerProblem = responseIssuerProblem(returned.iss ?? null, provider.discoveryState());
    if (issuerProblem) return fail(new OAuthFlowError(issuerProblem));
    log.add({
      kind: "authorization",
      title: "Authorization (this window)",
      at: now(),
      ok: true,
      note: "Came back from the authorization server with a code and the expected state.",
    });
    try {
      result = await runAuth(sdk, provider, { ...options, authorizationCode: returned.code, ...(returned.iss ? { iss: returned.iss } : {}) });
    } catch (error) {
      return fail(error);
    }
    if (result === "AUTHORIZED") return;
  }
  try {
    provider.takePendingAuthorization();
    result = await runAuth(sdk, provider, options);
  } catch (error) {
    return fail(error);
  }
  if (result === "AUTHORIZED") return;
  const url = provider.takePendingAuthorization();
  if (!url) return fail(new OAuthFlowError("Signing in failed: the flow asked for a redirect but built no authorization URL."));
  const expected = provider.expectedState();
  const started = now();
  const logAuthorization = (outcome: { ok: true; note: string } | { ok: false; error: string }) =>
    log.add({
      kind: "authorization",
      title: "Authorization (browser)",
      at: started,
      durationMs: now() - started,
      request: { method: "GET", url: maskUrl(url.href), headers: {} },
      ...outcome,
    });
  let answer: AuthorizationResult;
  try {
    answer = await session.authorize(url);
  } catch (error) {
    // "Waiting for sign-in" (from fail) says it all when nobody was asked yet.
    if (!(error instanceof AuthorizationNeeded)) logAuthorization({ ok: false, error: messageOf(error) });
    return fail(error);
  }
  if (expected !== undefined && answer.state !== expected) {
    logAuthorization({ ok: false, error: "The callback's state does not match this flow's." });
    return fail(new OAuthFlowError(STATE_MISMATCH));
  }
  const issuerProblem = responseIssuerProblem(answer.iss ?? null, provider.discoveryState());
  if (issuerProblem) {
    logAuthorization({ ok: false, error: issuerProblem });
    return fail(new OAuthFlowError(issuerProblem));
  }
  logAuthorization({ ok: true, note: "The person signed in; the callback returned a code and the expected state." });
  try {
    result = await runAuth(sdk, provider, { ...options, authorizationCode: answer.code, ...(answer.iss ? { iss: answer.iss } : {}) });
  } catch (error) {
    return fail(error);
  }
  if (result !== "AUTHORIZED") fail(new OAuthFlowError("Signing in failed: the code exchange did not produce tokens."));
}

/** Wraps the transport's fetch with OAuth; see the file comment. */
export function withOAuth(next: FetchLike, session: OAuthSession): FetchLike {
  let inflight: Promise<void> | undefined;
  const now = session.now ?? Date.now;
  const authorizeShared = (challenge: { resourceMetadataUrl?: URL; scope?: string }): Promise<void> => {
    inflight ??= authorizeOnce(session, challenge).finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
  return async (input, init) => {
    let rounds = 0;
    let lastChallenge: string | null = null;
    for (;;) {
      if (inflight) await inflight.catch(() => undefined);
      const tokens = session.provider.tokens();
      const headers = new Headers(init?.headers);
      if (tokens) headers.set("authorization", `Bearer ${tokens.access_token}`);
      const response = await next(input, { ...init, headers });
      const status = response.status;
      if (status !== 401 && status !== 403) return response;
      const params = (await loadMcpAuth()).extractWWWAuthenticateParams(response);
      const header = response.headers.get("www-authenticate");
      const stepUp = status === 403 && params.error === "insufficient_scope";
      if (status === 403 && !stepUp) return response;
      if (rounds >= MAX_AUTH_ROUNDS || (stepUp && header === lastChallenge)) {
        session.log.add({
          kind: "challenge",
          title: `Still HTTP ${status} after signing in`,
          at: now(),
          ok: false,
          error: `The server refused the new token too (${header ?? "no WWW-Authenticate"}); giving up after ${rounds} attempt${rounds === 1 ? "" : "s"} instead of looping.`,
        });
        return response;
      }
      rounds++;
      lastChallenge = header;
      await response.body?.cancel().catch(() => undefined);
      session.log.add({
        kind: "challenge",
        title: stepUp ? "Step-up: HTTP 403 insufficient_scope" : "HTTP 401 from the MCP server",
        at: now(),
        ok: true,
        response: { status, headers: header ? { "www-authenticate": header } : {} },
        note: stepUp
          ? `The server wants more scope (${params.scope ?? "unnamed"}); authorizing again.`
          : tokens
            ? "The token was refused or expired; refreshing or signing in again."
            : "The server requires OAuth; starting the flow.",
      });
      let scope = params.scope;
      if (stepUp) {
        // A refresh cannot widen scope: a new authorization asks for the old and the new scopes together.
        scope = scopeUnion(tokens?.scope, params.scope);
        session.provider.invalidateCredentials("tokens");
      } else if (tokens) {
        // A token the server refused: discover again, in case the resource moved to another
        // authorization server (SEP-2352); the registration is checked against it then.
        session.provider.invalidateCredentials("discovery");
      }
      await authorizeShared({ ...(params.resourceMetadataUrl ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) });
    }
  };
}
