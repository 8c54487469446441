/**
 * The SDK's `OAuthClientProvider` over an OAuthStore: what the SDK's `auth()` reads and saves
 * while it discovers, registers, authorizes, exchanges and refreshes. Two checks the SDK leaves
 * to the client happen here, when discovery is saved: the authorization server metadata must
 * name the issuer it was fetched for (RFC 8414 §3.3), and every endpoint must be https unless it
 * is on loopback. The authorization redirect itself is not followed here: `redirectToAuthorization`
 * only keeps the URL, and oauth-fetch.ts hands it to the page's popup or the headless authorizer.
 * Pure.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/client";
import type { OAuthStore } from "./store";
import { applicationTypeFor } from "./client-metadata";

/** A refusal the flow must not go past: a forged or unsafe authorization server. */
export class OAuthRefused extends Error {
  override readonly name = "OAuthRefused";
}

/** How this client presents itself to authorization servers. */
export interface ClientIdentity {
  /** Where the authorization server sends the person back: the app's /oauth/callback. */
  redirectUrl: string;
  clientName: string;
  /** The app's Client ID Metadata Document (https only; used when the server supports it). */
  clientMetadataUrl?: string;
  /** Asked for when neither the server's challenge nor its metadata names scopes. */
  scope?: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** True for https URLs and for http on loopback (a server on this machine). */
export function isSecureEndpoint(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || (parsed.protocol === "http:" && LOOPBACK.test(parsed.hostname));
  } catch {
    return false;
  }
}

function sameIssuer(a: string, b: string): boolean {
  const trim = (value: string) => value.replace(/\/+$/, "");
  return trim(a) === trim(b);
}

/**
 * Why an authorization response must not be used (RFC 9207, the `iss` parameter), or undefined:
 * an `iss` that is not the issuer of the authorization server this flow went to (a mix-up or a
 * forged response), or none from a server that says it always sends one. Compared as strings,
 * as the RFC says; the code of a refused response is never exchanged.
 */
export function responseIssuerProblem(iss: string | null, state: OAuthDiscoveryState | undefined): string | undefined {
  const metadata = state?.authorizationServerMetadata;
  if (!metadata || typeof metadata.issuer !== "string") return undefined;
  const promised = (metadata as Record<string, unknown>).authorization_response_iss_parameter_supported === true;
  if (iss !== null && iss !== metadata.issuer) {
    return `Signing in failed: the authorization response names the issuer ${iss.slice(0, 200)}, but this sign-in went to ${metadata.issuer} (RFC 9207). It may come from another server (a mix-up attack), so its code was not used. Start the sign-in again.`;
  }
  if (iss === null && promised) {
    return `Signing in failed: ${metadata.issuer} says it names itself in every authorization response (RFC 9207), but this one carried no \`iss\`. Its code was not used. Start the sign-in again.`;
  }
  return undefined;
}

/** Throws OAuthRefused when discovery found a server this client must not trust. */
export function checkDiscovery(state: OAuthDiscoveryState): void {
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return;
  // The issuer is checked against what the protected resource metadata advertised. Under the
  // 2025-03-26 fallback (no such metadata) the MCP server's origin only stands in for an issuer
  // nobody named, and the suite's back-compat servers publish another one there.
  if (state.resourceMetadata && typeof metadata.issuer === "string" && !sameIssuer(metadata.issuer, String(state.authorizationServerUrl))) {
    throw new OAuthRefused(
      `The authorization server metadata names the issuer ${metadata.issuer}, but it was fetched for ${String(state.authorizationServerUrl)}. RFC 8414 requires them to match; a mismatch means the metadata is not this server's (misconfigured, or forged), so the flow stopped.`,
    );
  }
  const endpoints: Array<[string, unknown]> = [
    ["authorization_endpoint", metadata.authorization_endpoint],
    ["token_endpoint", metadata.token_endpoint],
    ["registration_endpoint", metadata.registration_endpoint],
    ["revocation_endpoint", (metadata as Record<string, unknown>).revocation_endpoint],
  ];
  for (const [name, value] of endpoints) {
    if (typeof value === "string" && !isSecureEndpoint(value)) {
      throw new OAuthRefused(
        `The authorization server's ${name} is ${value}: plain http is allowed only on loopback (localhost), since codes and tokens would cross the network unencrypted. The flow stopped.`,
      );
    }
  }
}

function randomState(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The provider for one server; `takePendingAuthorization` gives the URL `auth()` wants the person to open. */
export class StoredOAuthProvider implements OAuthClientProvider {
  private pendingAuthorization: URL | undefined;

  constructor(
    private readonly serverId: string,
    private readonly store: OAuthStore,
    private readonly identity: ClientIdentity,
    private readonly now: () => number = Date.now,
  ) {}

  get redirectUrl(): string {
    return this.identity.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.identity.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.identity.clientName,
      redirect_uris: [this.identity.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // SEP-837: "native" for a loopback redirect, "web" otherwise.
      application_type: applicationTypeFor(this.identity.redirectUrl),
      ...(this.identity.scope ? { scope: this.identity.scope } : {}),
    };
  }

  state(): string {
    const state = randomState();
    this.store.update(this.serverId, { state });
    return state;
  }

  /** The `state` the flow in progress expects back from the callback. */
  expectedState(): string | undefined {
    return this.store.read(this.serverId).state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.store.read(this.serverId).client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    const server = this.store.read(this.serverId).discovery?.authorizationServerUrl;
    this.store.update(this.serverId, { client, ...(server !== undefined ? { clientAuthorizationServer: String(server) } : {}) });
  }

  tokens(): OAuthTokens | undefined {
    return this.store.read(this.serverId).tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update(this.serverId, { tokens, tokensSavedAt: this.now(), codeVerifier: undefined, state: undefined });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.pendingAuthorization = authorizationUrl;
  }

  /** The authorization URL `auth()` built last (once; cleared by taking it). */
  takePendingAuthorization(): URL | undefined {
    const url = this.pendingAuthorization;
    this.pendingAuthorization = undefined;
    return url;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.store.update(this.serverId, { codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.store.read(this.serverId).codeVerifier;
    if (!verifier) throw new Error("No PKCE code verifier is saved for this flow: start the sign-in again.");
    return verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const record = this.store.read(this.serverId);
    const keepClient = record.preRegistered === true;
    if (scope === "all") {
      this.store.update(this.serverId, {
        tokens: undefined,
        tokensSavedAt: undefined,
        codeVerifier: undefined,
        state: undefined,
        discovery: undefined,
        ...(keepClient ? {} : { client: undefined }),
      });
    } else if (scope === "client") {
      if (!keepClient) this.store.update(this.serverId, { client: undefined });
    } else if (scope === "tokens") {
      this.store.update(this.serverId, { tokens: undefined, tokensSavedAt: undefined });
    } else if (scope === "verifier") {
      this.store.update(this.serverId, { codeVerifier: undefined });
    } else {
      this.store.update(this.serverId, { discovery: undefined });
    }
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    checkDiscovery(state);
    const record = this.store.read(this.serverId);
    const before = record.clientAuthorizationServer;
    // The resource moved to another authorization server (SEP-2352): the registration and tokens
    // were the old one's, so the client registers again there (a pre-registered id stays).
    const moved = before !== undefined && before !== String(state.authorizationServerUrl);
    this.store.update(this.serverId, {
      discovery: state,
      ...(moved ? { tokens: undefined, tokensSavedAt: undefined, ...(record.preRegistered === true ? {} : { client: undefined }) } : {}),
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.store.read(this.serverId).discovery;
  }
}
