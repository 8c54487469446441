/**
 * OAuth in the page: one store in this browser's localStorage (oauth/store.ts), a flow log per
 * server for the OAuth flow view, and the popup authorizer. The connection manager asks it for a
 * session per connect (`session`); the server card signs in, restarts the flow, enters a
 * pre-registered client and signs out through it; "Forget secrets" revokes and deletes every
 * token (`forgetAll`).
 */
import { createFlowLog } from "../oauth/flow-log";
import type { FlowLog } from "../oauth/flow-log";
import type { OAuthSession } from "../oauth/oauth-fetch";
import { StoredOAuthProvider } from "../oauth/provider";
import type { ClientIdentity } from "../oauth/provider";
import { revokeTokens } from "../oauth/revoke";
import { createOAuthStore } from "../oauth/store";
import type { OAuthRecord, OAuthStore } from "../oauth/store";
import type { FetchLike } from "../proxy/proxy-fetch";
import type { ServerConfig } from "../types";
import { CLIENT_METADATA_DOCUMENT_PATH, OAUTH_CALLBACK_PATH } from "../oauth/client-metadata";
import { PopupAuthorizer } from "./oauth-popup";
import type { RemovableTextStorage } from "../../storage/key-value";

/** How the playground presents itself to authorization servers from `origin`. */
export function pageIdentity(origin: string): ClientIdentity {
  return {
    redirectUrl: `${origin}${OAUTH_CALLBACK_PATH}`,
    clientName: "Code Mode Playground",
    // Authorization servers fetch the document themselves, so it must be reachable over https.
    ...(origin.startsWith("https://") ? { clientMetadataUrl: `${origin}${CLIENT_METADATA_DOCUMENT_PATH}` } : {}),
  };
}

/** The page's OAuth state and actions. */
export class BrowserOAuth {
  readonly store: OAuthStore;
  private readonly logs = new Map<string, FlowLog>();
  private readonly identity: ClientIdentity;

  constructor(
    storage: RemovableTextStorage,
    origin: string,
    private readonly authFetch: FetchLike,
    private readonly popup: PopupAuthorizer = new PopupAuthorizer(),
  ) {
    this.store = createOAuthStore(storage);
    this.identity = pageIdentity(origin);
  }

  /** The flow log of a server (created on first use). */
  logFor(serverId: string): FlowLog {
    let log = this.logs.get(serverId);
    if (!log) {
      log = createFlowLog();
      this.logs.set(serverId, log);
    }
    return log;
  }

  /** For ConnectOptions.oauth. */
  session = (config: ServerConfig, serverUrl: string, authFetch: FetchLike): OAuthSession => ({
    provider: new StoredOAuthProvider(config.id, this.store, this.identity),
    serverUrl,
    authFetch,
    authorize: this.popup.authorizerFor(config.id, config.name),
    log: this.logFor(config.id),
    takeReturned: () => this.popup.takeReturned(config.id),
  });

  /** Call inside the click that asks to sign in, then reconnect the server. */
  signIn(serverId: string): void {
    this.popup.arm(serverId);
  }

  /** Call when the reconnect after `signIn` needed no authorization (closes the blank popup). */
  settle(serverId: string): void {
    this.popup.disarm(serverId);
  }

  /** Starts over: forgets the tokens, registration and discovery (a pre-registered client stays), clears the log. */
  restart(serverId: string): void {
    const record = this.store.read(serverId);
    this.store.remove(serverId);
    if (record.preRegistered && record.client) this.store.update(serverId, { client: record.client, preRegistered: true });
    this.logFor(serverId).clear();
    this.popup.arm(serverId);
  }

  /** Uses a client id (and secret) the authorization server's owner issued, instead of registering. */
  setClient(serverId: string, clientId: string, clientSecret: string): void {
    this.store.remove(serverId);
    if (clientId.trim() === "") return;
    this.store.update(serverId, {
      client: { client_id: clientId.trim(), ...(clientSecret ? { client_secret: clientSecret } : {}), redirect_uris: [this.identity.redirectUrl] },
      preRegistered: true,
    });
  }

  /** What the card shows: signed in or not, and the pre-registered client id. */
  describe(serverId: string): { signedIn: boolean; scope?: string; expiresAt?: number; clientId?: string; preRegistered: boolean } {
    const record: OAuthRecord = this.store.read(serverId);
    const expiresIn = record.tokens?.expires_in;
    return {
      signedIn: record.tokens !== undefined,
      ...(record.tokens?.scope ? { scope: record.tokens.scope } : {}),
      ...(expiresIn !== undefined && record.tokensSavedAt !== undefined ? { expiresAt: record.tokensSavedAt + expiresIn * 1000 } : {}),
      ...(record.client ? { clientId: record.client.client_id } : {}),
      preRegistered: record.preRegistered === true,
    };
  }

  /** Revokes a server's tokens at its authorization server, then deletes them here. */
  async signOut(serverId: string): Promise<void> {
    const record = this.store.read(serverId);
    this.store.update(serverId, { tokens: undefined, tokensSavedAt: undefined });
    await revokeTokens(record, this.authFetch, this.logFor(serverId));
  }

  /** "Forget secrets": every token revoked (best effort) and every OAuth record deleted. */
  async forgetAll(): Promise<void> {
    const records = this.store.ids().map((id) => [id, this.store.read(id)] as const);
    this.store.clear();
    await Promise.all(records.map(([id, record]) => revokeTokens(record, this.authFetch, this.logFor(id))));
  }
}
