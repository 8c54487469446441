/**
 * The Client ID Metadata Document of the playground served at `origin` (draft-ietf-oauth-client-id-metadata-document):
 * its `client_id` is the document's own URL, and the redirect URI is the app's callback. A
 * public client: no secret, PKCE only. Pure.
 */

/** The document's path and the callback's, as the page uses them. */
export const CLIENT_METADATA_DOCUMENT_PATH = "/oauth/client-metadata.json";
export const OAUTH_CALLBACK_PATH = "/oauth/callback";

export function clientMetadataDocument(origin: string): Record<string, unknown> {
  return {
    client_id: `${origin}${CLIENT_METADATA_DOCUMENT_PATH}`,
    client_name: "Code Mode Playground",
    client_uri: origin,
    redirect_uris: [`${origin}${OAUTH_CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}
