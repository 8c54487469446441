/**
 * The authorization step without a person: requests the authorization URL and follows its
 * redirects (at most MAX_HOPS, each on the authorization server's own host) until one points at
 * the redirect URL, then reads `code` and `state` from it. For authorization servers that grant
 * without a login page: the conformance suite's, and test servers. A redirect to any other host,
 * a page instead of a redirect, or an `error` in the callback ends the flow with a clear error.
 * Pure; the fetch is injected.
 */
import type { FetchLike } from "../proxy/proxy-fetch";
import { AuthorizationNeeded, OAuthFlowError } from "./oauth-fetch";
import type { AuthorizationResult, Authorizer } from "./oauth-fetch";

const MAX_HOPS = 5;

function isRedirectTarget(location: URL, redirectUrl: URL): boolean {
  return location.origin === redirectUrl.origin && location.pathname === redirectUrl.pathname;
}

/** Reads the callback's query: the code and state, or the authorization server's error. */
export function readCallback(location: URL): AuthorizationResult {
  const error = location.searchParams.get("error");
  if (error) {
    const description = location.searchParams.get("error_description");
    const refused = error === "access_denied" ? "The authorization was refused (access_denied)" : `The authorization server answered ${error}`;
    throw new OAuthFlowError(`${refused}${description ? `: ${description.slice(0, 300)}` : ""}. Nothing was changed; sign in again to retry.`);
  }
  const code = location.searchParams.get("code");
  if (!code) throw new OAuthFlowError("The authorization callback carried no code. Start the sign-in again.");
  return { code, state: location.searchParams.get("state"), iss: location.searchParams.get("iss") };
}

/** An Authorizer that follows redirects itself; see the file comment. */
export function headlessAuthorizer(fetch: FetchLike, redirectUrl: string): Authorizer {
  const target = new URL(redirectUrl);
  return async (authorizationUrl) => {
    let url = authorizationUrl;
    const host = authorizationUrl.host;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new AuthorizationNeeded(
          `The authorization server answered HTTP ${response.status} instead of redirecting back: it wants a person to sign in, which the headless client cannot do.`,
        );
      }
      const next = new URL(location, url);
      if (isRedirectTarget(next, target)) return readCallback(next);
      if (next.host !== host) {
        throw new OAuthFlowError(
          `The authorization server redirected to ${next.origin}, which is neither itself nor this client's redirect URL; the flow stopped.`,
        );
      }
      url = next;
    }
    throw new OAuthFlowError(`The authorization server redirected more than ${MAX_HOPS} times without coming back.`);
  };
}
