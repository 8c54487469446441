/**
 * The Client ID Metadata Document of the playground served at `origin` (draft-ietf-oauth-client-id-metadata-document):
 * its `client_id` is the document's own URL, and the redirect URI is the app's callback. A
 * public client: no secret, PKCE only. Pure.
 */

/** The document's path and the callback's, as the page uses them. */
export const CLIENT_METADATA_DOCUMENT_PATH = "/oauth/client-metadata.json";
export const OAUTH_CALLBACK_PATH = "/oauth/callback";

/**
 * The client's `application_type` for registration (SEP-837, OpenID Connect Registration):
 * "native" when the redirect goes to this machine's loopback (the playground on 127.0.0.1),
 * "web" for a playground served under a host name.
 */
export function applicationTypeFor(redirectUrl: string): "native" | "web" {
  let host: string;
  try {
    host = new URL(redirectUrl).hostname;
  } catch {
    return "web";
  }
  return host === "localhost" || host === "[::1]" || /^127\./.test(host) ? "native" : "web";
}

export function clientMetadataDocument(origin: string): Record<string, unknown> {
  return {
    client_id: `${origin}${CLIENT_METADATA_DOCUMENT_PATH}`,
    client_name: "Code Mode Playground",
    client_uri: origin,
    redirect_uris: [`${origin}${OAUTH_CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: applicationTypeFor(origin),
  };
}
