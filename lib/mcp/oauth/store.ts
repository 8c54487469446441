/**
 * Where a server's OAuth state is kept: its client registration, its tokens, the PKCE verifier
 * and `state` of a flow in progress, and what discovery found. These are secrets (tokens, a
 * client secret): in the page they live in this origin's localStorage under their own key
 * (OAUTH_KEY), beside the header secrets of registry-storage.ts, and "Forget secrets" removes
 * them; they never reach the sandbox, a share link, a log or the timeline. The headless client
 * (the conformance driver) keeps them in memory. Pure; the storage is injected.
 */
import { Store, type ReadableStore } from "../../state/store";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/client";
import { isRecord } from "../../text/json-value";
import type { RemovableTextStorage } from "../../storage/key-value";

/** Key of every server's OAuth state in this browser. The version is in the key. */
export const OAUTH_KEY = "code-mode-playground:mcp-oauth:v1";

/** One server's OAuth state. */
export interface OAuthRecord {
  /** The registered (or pre-registered, or URL-based) client. */
  client?: OAuthClientInformationMixed;
  /** The authorization server the client was registered with (SEP-2352: another one means registering again). */
  clientAuthorizationServer?: string;
  /** True when the person entered the client id (and secret): never re-registered or dropped. */
  preRegistered?: boolean;
  tokens?: OAuthTokens;
  /** Date.now() when the tokens were saved (expiry is counted from here). */
  tokensSavedAt?: number;
  /** The PKCE verifier and `state` of the authorization in flight. */
  codeVerifier?: string;
  state?: string;
  discovery?: OAuthDiscoveryState;
}

/** OAuth state by server id: a store (lib/state/store.ts). Reads never throw; a refusing storage keeps what it can in memory. */
export interface OAuthStore extends ReadableStore<Readonly<Record<string, OAuthRecord>>> {
  read(serverId: string): OAuthRecord;
  /** Merges `patch` into the record (an `undefined` field removes it). */
  update(serverId: string, patch: Partial<OAuthRecord>): void;
  remove(serverId: string): void;
  /** Every server id with a record. */
  ids(): string[];
  /** Removes every record. */
  clear(): void;
}

type Records = Record<string, OAuthRecord>;

function isRecordMap(value: unknown): value is Records {
  return isRecord(value) && Object.values(value).every(isRecord);
}

function own(records: Records, id: string): OAuthRecord {
  return Object.hasOwn(records, id) ? (records[id] ?? {}) : {};
}

/**
 * A store over a key-value storage (localStorage in the page), or over nothing (memory only:
 * the headless client, tests).
 */
export function createOAuthStore(storage?: RemovableTextStorage, key = OAUTH_KEY): OAuthStore {
  let records: Records = {};
  if (storage) {
    try {
      const text = storage.getItem(key);
      const parsed = text === null ? undefined : (JSON.parse(text) as { version?: unknown; servers?: unknown });
      if (parsed && parsed.version === 1 && isRecordMap(parsed.servers)) records = parsed.servers;
    } catch {
      // Unreadable OAuth state means signing in again, nothing worse.
    }
  }
  return new StoredOAuthRecords(records, storage, key);
}

class StoredOAuthRecords extends Store<Records> implements OAuthStore {
  constructor(
    initial: Records,
    private readonly storage: RemovableTextStorage | undefined,
    private readonly key: string,
  ) {
    super(initial);
  }

  read(id: string): OAuthRecord {
    return { ...own(this.snapshot(), id) };
  }

  update(id: string, patch: Partial<OAuthRecord>): void {
    const records = this.snapshot();
    const merged: Record<string, unknown> = { ...own(records, id), ...patch };
    for (const [field, value] of Object.entries(merged)) if (value === undefined) delete merged[field];
    const next = { ...records };
    if (Object.keys(merged).length === 0) delete next[id];
    else next[id] = merged;
    this.commit(next);
  }

  remove(id: string): void {
    const records = this.snapshot();
    if (!Object.hasOwn(records, id)) return;
    const next = { ...records };
    delete next[id];
    this.commit(next);
  }

  ids(): string[] {
    return Object.keys(this.snapshot());
  }

  clear(): void {
    this.commit({});
  }

  private commit(next: Records): void {
    if (this.storage) {
      try {
        if (Object.keys(next).length === 0) this.storage.removeItem(this.key);
        else this.storage.setItem(this.key, JSON.stringify({ version: 1, servers: next }));
      } catch {
        // A full or refusing storage: the session lasts until the page closes.
      }
    }
    this.set(next);
  }
}
