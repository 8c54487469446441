/**
 * Token revocation (RFC 7009) when the person forgets a server's secrets: the refresh token
 * first (revoking it ends the grant), then the access token, at the authorization server's
 * `revocation_endpoint`, authenticated as the token endpoint is. Best effort: the tokens are
 * deleted from this browser whatever the authorization server answers. Pure; fetch injected.
 */
import type { FetchLike } from "../proxy/proxy-fetch";
import { recordingFetch } from "./flow-log";
import type { FlowLog } from "./flow-log";
import type { OAuthRecord } from "./store";

/** What revoking achieved, in words for the flow view. */
export interface RevokeOutcome {
  revoked: number;
  failed: number;
  /** Why nothing was sent, when nothing was. */
  skipped?: string;
}

/** Revokes the record's tokens; never throws. */
export async function revokeTokens(record: OAuthRecord, fetch: FetchLike, log?: FlowLog): Promise<RevokeOutcome> {
  const tokens = record.tokens;
  if (!tokens) return { revoked: 0, failed: 0, skipped: "no tokens are stored" };
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined;
  const endpoint = typeof metadata?.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
  if (!endpoint) return { revoked: 0, failed: 0, skipped: "the authorization server publishes no revocation endpoint; the tokens were only deleted here" };
  const client = record.client;
  const send = log ? recordingFetch(fetch, log) : fetch;
  const outcome: RevokeOutcome = { revoked: 0, failed: 0 };
  const pairs: Array<[string, string]> = [];
  if (tokens.refresh_token) pairs.push([tokens.refresh_token, "refresh_token"]);
  pairs.push([tokens.access_token, "access_token"]);
  for (const [token, hint] of pairs) {
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    const secret = client && "client_secret" in client && typeof client.client_secret === "string" ? client.client_secret : undefined;
    const method = client && "token_endpoint_auth_method" in client ? client.token_endpoint_auth_method : undefined;
    if (client && secret && method === "client_secret_basic") {
      headers.set("authorization", `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`);
    } else if (client) {
      body.set("client_id", client.client_id);
      if (secret) body.set("client_secret", secret);
    }
    try {
      const response = await send(endpoint, { method: "POST", headers, body: body.toString() });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) outcome.revoked++;
      else outcome.failed++;
    } catch {
      outcome.failed++;
    }
  }
  return outcome;
}
