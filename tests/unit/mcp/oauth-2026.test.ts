/**
 * The 2026-07-28 revision's authorization rules on the client's side, as pure checks (the
 * conformance suite's 2026 set exercises them end to end in `npm run conformance`): the `iss` of
 * an authorization response (RFC 9207), a registration redone when the resource moves to another
 * authorization server (SEP-2352), and the registration's `application_type` (SEP-837).
 */
import { describe, expect, it } from "vitest";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { applicationTypeFor } from "@/lib/mcp/oauth/client-metadata";
import { responseIssuerProblem, StoredOAuthProvider } from "@/lib/mcp/oauth/provider";
import { createOAuthStore } from "@/lib/mcp/oauth/store";

const discovery = (issuer: string, promised?: boolean): OAuthDiscoveryState => ({
  authorizationServerUrl: issuer,
  authorizationServerMetadata: {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    response_types_supported: ["code"],
    ...(promised === undefined ? {} : { authorization_response_iss_parameter_supported: promised }),
  },
});

describe("the authorization response's issuer (RFC 9207)", () => {
  it("accepts the issuer it went to, and no iss from a server that never promised one", () => {
    expect(responseIssuerProblem("https://as.example", discovery("https://as.example", true))).toBeUndefined();
    expect(responseIssuerProblem(null, discovery("https://as.example"))).toBeUndefined();
    expect(responseIssuerProblem(null, undefined)).toBeUndefined();
  });

  it("refuses another issuer (even one that differs only by a slash), and a missing iss the server promised", () => {
    expect(responseIssuerProblem("https://evil.example", discovery("https://as.example"))).toMatch(
      /names the issuer https:\/\/evil\.example, but this sign-in went to https:\/\/as\.example/,
    );
    expect(responseIssuerProblem("https://as.example/", discovery("https://as.example", true))).toMatch(/mix-up/);
    expect(responseIssuerProblem(null, discovery("https://as.example", true))).toMatch(/carried no `iss`/);
  });
});

describe("registration", () => {
  it("says native for a playground on loopback, web for one under a host name (SEP-837)", () => {
    expect(applicationTypeFor("http://127.0.0.1:3000/oauth/callback")).toBe("native");
    expect(applicationTypeFor("http://localhost:3000/oauth/callback")).toBe("native");
    expect(applicationTypeFor("https://play.example.com/oauth/callback")).toBe("web");
  });

  it("is dropped with its tokens when the resource moves to another authorization server (SEP-2352); a pre-registered client stays", () => {
    const memory = new Map<string, string>();
    const storage = {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => void memory.set(k, v),
      removeItem: (k: string) => void memory.delete(k),
    };
    const store = createOAuthStore(storage);
    const provider = new StoredOAuthProvider("srv", store, { clientName: "t", redirectUrl: "http://127.0.0.1:3000/oauth/callback" });
    provider.saveDiscoveryState(discovery("https://old.example"));
    provider.saveClientInformation({ client_id: "old-client" });
    provider.saveTokens({ access_token: "a", token_type: "Bearer" });
    provider.saveDiscoveryState(discovery("https://old.example"));
    expect(provider.clientInformation()?.client_id).toBe("old-client");
    provider.saveDiscoveryState(discovery("https://new.example"));
    expect(provider.clientInformation()).toBeUndefined();
    expect(provider.tokens()).toBeUndefined();
    expect(provider.clientMetadata).toMatchObject({ application_type: "native" });
  });
});
