/**
 * OAuth for a client with no person and no browser (the conformance driver, tests): the state in
 * memory, the authorization redirect followed by the headless authorizer, every step in a flow
 * log. The same provider and fetch wrapper the page uses (lib/mcp/oauth).
 */
import { createFlowLog } from "../oauth/flow-log";
import type { FlowLog } from "../oauth/flow-log";
import { headlessAuthorizer } from "../oauth/headless";
import type { OAuthSession } from "../oauth/oauth-fetch";
import { StoredOAuthProvider } from "../oauth/provider";
import type { ClientIdentity } from "../oauth/provider";
import { createOAuthStore } from "../oauth/store";
import type { OAuthStore } from "../oauth/store";
import type { FetchLike } from "../proxy/proxy-fetch";
import type { ServerConfig } from "../types";

/** What a headless client keeps between connects. */
export interface HeadlessOAuth {
  store: OAuthStore;
  log: FlowLog;
  /** For ConnectOptions.oauth. */
  session: (config: ServerConfig, serverUrl: string, authFetch: FetchLike) => OAuthSession;
}

/** A headless OAuth wiring; `preRegistered` is a client id (and secret) the server's owner issued. */
export function createHeadlessOAuth(identity: ClientIdentity, preRegistered?: { clientId: string; clientSecret?: string }): HeadlessOAuth {
  const store = createOAuthStore();
  const log = createFlowLog();
  return {
    store,
    log,
    session(config, serverUrl, authFetch) {
      if (preRegistered && store.read(config.id).client === undefined) {
        store.update(config.id, {
          client: {
            client_id: preRegistered.clientId,
            ...(preRegistered.clientSecret ? { client_secret: preRegistered.clientSecret } : {}),
            redirect_uris: [identity.redirectUrl],
          },
          preRegistered: true,
        });
      }
      return {
        provider: new StoredOAuthProvider(config.id, store, identity),
        serverUrl,
        authFetch,
        authorize: headlessAuthorizer(authFetch, identity.redirectUrl),
        log,
      };
    },
  };
}
