import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import type { ConnectOptions } from "@/lib/mcp/connection";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import { createHeadlessOAuth } from "@/lib/mcp/node/headless-oauth";
import { createFlowLog, maskBody, maskUrl, recordingFetch } from "@/lib/mcp/oauth/flow-log";
import { headlessAuthorizer } from "@/lib/mcp/oauth/headless";
import { withOAuth } from "@/lib/mcp/oauth/oauth-fetch";
import { checkDiscovery, isSecureEndpoint, StoredOAuthProvider } from "@/lib/mcp/oauth/provider";
import { revokeTokens } from "@/lib/mcp/oauth/revoke";
import { createOAuthStore, OAUTH_KEY } from "@/lib/mcp/oauth/store";
import type { ServerConfig } from "@/lib/mcp/types";
import { startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import type { OAuthMcpServer } from "../../fixtures/mcp/oauth-server";

const REDIRECT = "http://127.0.0.1:9/oauth/callback";
const servers: OAuthMcpServer[] = [];
const extra: http.Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(extra.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(consent: "approve" | "deny" = "approve"): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer({ consent });
  servers.push(server);
  return server;
}

function configFor(url: string): ServerConfig {
  return { id: "guarded", name: "guarded", transport: "streamable-http", url, enabled: true };
}

function optionsFor(url: string, oauth: ReturnType<typeof createHeadlessOAuth>): ConnectOptions {
  return { baseUrl: new URL(url).origin, proxyUrl: "/api/mcp/proxy", via: "direct", timeoutMs: 10_000, oauth: oauth.session };
}

describe("OAuth against an SDK-built authorization and resource server", () => {
  it("discovers, registers, authorizes with PKCE, exchanges, then calls a tool with the token", async () => {
    const server = await start();
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "playground-test" });
    const connection = await connectToServer(configFor(server.url), optionsFor(server.url, oauth));
    const result = await connection.callTool("whoami", {});
    await connection.close();
    const who = JSON.parse((result.content[0] as { text: string }).text) as { clientId: string; scopes: string[] };
    expect(who.clientId).toMatch(/^client-/);
    expect(who.scopes).toEqual(["mcp:tools"]);
    const kinds = oauth.log.steps.map((s) => s.kind);
    for (const kind of ["challenge", "resource-metadata", "server-metadata", "registration", "authorization", "token"] as const) expect(kinds).toContain(kind);
    const authorization = oauth.log.steps.find((s) => s.kind === "authorization");
    expect(authorization?.request?.url).toContain("code_challenge_method=S256");
    expect(authorization?.request?.url).toContain(`resource=${encodeURIComponent(server.url)}`);
    // No token, code or secret in the flow view.
    const record = oauth.store.read("guarded");
    const shown = JSON.stringify(oauth.log.steps);
    expect(record.tokens?.access_token).toBeTruthy();
    for (const secret of [
      record.tokens?.access_token,
      record.tokens?.refresh_token,
      (record.client as { client_secret?: string }).client_secret,
      ...server.issued,
    ]) {
      if (secret) expect(shown).not.toContain(secret);
    }
  });

  it("refreshes an expired token without asking the person again", async () => {
    const server = await start();
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "playground-test" });
    const connection = await connectToServer(configFor(server.url), optionsFor(server.url, oauth));
    const before = oauth.store.read("guarded").tokens?.access_token;
    const authorizations = oauth.log.steps.filter((s) => s.kind === "authorization").length;
    server.expireAccessTokens();
    const result = await connection.callTool("whoami", {});
    await connection.close();
    expect(result.isError).toBeFalsy();
    expect(server.refreshes).toBe(1);
    expect(oauth.store.read("guarded").tokens?.access_token).not.toBe(before);
    expect(oauth.log.steps.filter((s) => s.kind === "authorization")).toHaveLength(authorizations);
    expect(oauth.log.steps.some((s) => s.kind === "refresh" && s.ok)).toBe(true);
  });

  it("a refused consent is a clear oauth error and stores no token", async () => {
    const server = await start("deny");
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "playground-test" });
    const error = await connectToServer(configFor(server.url), optionsFor(server.url, oauth)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("oauth");
    expect((error as ConnectionError).message).toMatch(/refused \(access_denied\): The person declined/);
    expect(oauth.store.read("guarded").tokens).toBeUndefined();
  });

  it("a failing token endpoint is a clear oauth error, with the failed step in the flow view", async () => {
    const server = await startOAuthMcpServer({ consent: "approve", failTokenEndpoint: true });
    servers.push(server);
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "playground-test" });
    const error = (await connectToServer(configFor(server.url), optionsFor(server.url, oauth)).catch((e: unknown) => e)) as ConnectionError;
    expect(error.kind).toBe("oauth");
    expect(error.message).toMatch(/^Signing in failed: .*The token database is down/);
    const token = oauth.log.steps.find((s) => s.kind === "token");
    expect(token).toMatchObject({ ok: false, response: { status: 500 } });
    expect(token?.error).toMatch(/^The token endpoint refused the authorization code \(HTTP 500\) \(server_error: The token database is down\.\)/);
    expect(oauth.store.read("guarded").tokens).toBeUndefined();
  });

  it("revokes the refresh and access tokens at the revocation endpoint", async () => {
    const server = await start();
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "playground-test" });
    const connection = await connectToServer(configFor(server.url), optionsFor(server.url, oauth));
    await connection.close();
    const record = oauth.store.read("guarded");
    const log = createFlowLog();
    const outcome = await revokeTokens(record, fetch, log);
    expect(outcome).toEqual({ revoked: 2, failed: 0 });
    expect(server.revoked).toEqual(new Set([record.tokens?.refresh_token, record.tokens?.access_token]));
    expect(log.steps.map((s) => s.kind)).toEqual(["revocation", "revocation"]);
    expect(JSON.stringify(log.steps)).not.toContain(record.tokens?.access_token);
  });

  it("a callback with another state is refused (a stale or forged callback)", async () => {
    const server = await start();
    const store = createOAuthStore();
    const log = createFlowLog();
    const provider = new StoredOAuthProvider("guarded", store, { redirectUrl: REDIRECT, clientName: "t" });
    const authorize = headlessAuthorizer(fetch, REDIRECT);
    const forged = withOAuth(fetch, {
      provider,
      serverUrl: server.url,
      authFetch: fetch,
      log,
      authorize: async (url) => ({ ...(await authorize(url)), state: "forged" }),
    });
    const error = await forged(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/different `state`/);
    expect(store.read("guarded").tokens).toBeUndefined();
  });
});

/** A resource whose protected resource metadata points at an authorization server that lies about itself. */
async function forgedServer(metadata: (origin: string) => Record<string, unknown>): Promise<string> {
  const server = http.createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/.well-known/oauth-protected-resource/mcp") return json(200, { resource: `${origin}/mcp`, authorization_servers: [`${origin}/as`] });
    if (req.url?.startsWith("/.well-known/oauth-authorization-server/as")) return json(200, metadata(origin));
    if (req.url === "/mcp")
      return json(401, { error: "invalid_token" }, { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
    json(404, {});
  });
  extra.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("OAuth: servers the client must not trust", () => {
  const endpoints = (origin: string) => ({
    authorization_endpoint: `${origin}/as/authorize`,
    token_endpoint: `${origin}/as/token`,
    registration_endpoint: `${origin}/as/register`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
  });

  it("metadata naming another issuer stops the flow before anything is registered", async () => {
    const url = await forgedServer((origin) => ({ issuer: "https://evil.example", ...endpoints(origin) }));
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "t" });
    const error = (await connectToServer(configFor(url), optionsFor(url, oauth)).catch((e: unknown) => e)) as ConnectionError;
    expect(error.kind).toBe("oauth");
    expect(error.message).toMatch(/names the issuer https:\/\/evil\.example/);
    expect(oauth.log.steps.some((s) => s.kind === "registration")).toBe(false);
  });

  it("an http token endpoint off loopback is refused", async () => {
    const url = await forgedServer((origin) => ({ issuer: `${origin}/as`, ...endpoints(origin), token_endpoint: "http://tokens.example/token" }));
    const oauth = createHeadlessOAuth({ redirectUrl: REDIRECT, clientName: "t" });
    const error = (await connectToServer(configFor(url), optionsFor(url, oauth)).catch((e: unknown) => e)) as ConnectionError;
    expect(error.kind).toBe("oauth");
    expect(error.message).toMatch(/token_endpoint is http:\/\/tokens\.example\/token: plain http is allowed only on loopback/);
  });

  it("an authorization redirect to another host is refused by the headless authorizer", async () => {
    const hop = http.createServer((_req, res) => {
      res.writeHead(302, { location: "https://elsewhere.example/callback?code=stolen" });
      res.end();
    });
    extra.push(hop);
    await new Promise<void>((resolve) => hop.listen(0, "127.0.0.1", resolve));
    const authorize = headlessAuthorizer(fetch, REDIRECT);
    await expect(authorize(new URL(`http://127.0.0.1:${(hop.address() as AddressInfo).port}/authorize`))).rejects.toThrow(
      /redirected to https:\/\/elsewhere\.example/,
    );
  });
});

describe("OAuth pieces", () => {
  it("isSecureEndpoint: https anywhere, http only on loopback", () => {
    expect(isSecureEndpoint("https://as.example/token")).toBe(true);
    expect(isSecureEndpoint("http://localhost:3000/token")).toBe(true);
    expect(isSecureEndpoint("http://127.0.0.1/token")).toBe(true);
    expect(isSecureEndpoint("http://[::1]:8080/t")).toBe(true);
    expect(isSecureEndpoint("http://as.example/token")).toBe(false);
    expect(isSecureEndpoint("http://localhost.evil.example/token")).toBe(false);
    expect(isSecureEndpoint("not a url")).toBe(false);
  });

  it("checkDiscovery: the issuer is checked against protected resource metadata, not the 2025-03-26 fallback", () => {
    const metadata = {
      issuer: "https://a.example/other",
      authorization_endpoint: "https://a.example/auth",
      token_endpoint: "https://a.example/token",
      response_types_supported: ["code"],
    };
    expect(() =>
      checkDiscovery({
        authorizationServerUrl: "https://a.example/",
        resourceMetadata: { resource: "https://m.example/mcp" },
        authorizationServerMetadata: metadata,
      }),
    ).toThrow(/issuer/);
    expect(() =>
      checkDiscovery({
        authorizationServerUrl: "https://a.example/other/",
        resourceMetadata: { resource: "https://m.example/mcp" },
        authorizationServerMetadata: metadata,
      }),
    ).not.toThrow();
    expect(() => checkDiscovery({ authorizationServerUrl: "https://a.example/", authorizationServerMetadata: metadata })).not.toThrow();
  });

  it("masks codes, verifiers, secrets and tokens in URLs and bodies", () => {
    expect(maskUrl("https://as.example/cb?code=abc123&state=xyz")).toBe("https://as.example/cb?code=%5Bredacted%5D&state=xyz");
    const form = maskBody(
      "grant_type=authorization_code&code=abc&code_verifier=v3r1f13r&client_secret=s3cr3t&client_id=c1",
      "application/x-www-form-urlencoded",
    );
    expect(form).toContain("client_id=c1");
    for (const secret of ["abc", "v3r1f13r", "s3cr3t"]) expect(form).not.toContain(`=${secret}`);
    const json = maskBody(
      JSON.stringify({ access_token: "at-1", refresh_token: "rt-1", id_token: "it-1", token_type: "bearer", expires_in: 60 }),
      "application/json",
    );
    expect(json).not.toMatch(/at-1|rt-1|it-1/);
    expect(json).toContain('"token_type": "bearer"');
  });

  it("recordingFetch names each request and keeps what failed in plain words", async () => {
    const log = createFlowLog();
    const fake = (input: string | URL) =>
      Promise.resolve(
        String(input).includes("register")
          ? new Response(JSON.stringify({ error: "invalid_client_metadata", error_description: "no" }), {
              status: 400,
              headers: { "content-type": "application/json" },
            })
          : new Response("", { status: 404 }),
      );
    const recording = recordingFetch(fake, log);
    await recording("https://as.example/.well-known/oauth-authorization-server");
    await recording("https://as.example/register", { method: "POST", body: JSON.stringify({ redirect_uris: ["x"] }) });
    expect(log.steps.map((s) => [s.kind, s.ok, s.optional ?? false])).toEqual([
      ["server-metadata", false, true],
      ["registration", false, false],
    ]);
    expect(log.steps[1]?.error).toMatch(/refused to register this client \(HTTP 400\) \(invalid_client_metadata: no\)/);
  });

  it("the store keeps state per server in its own key, and survives a corrupt value", () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    const store = createOAuthStore(storage);
    store.update("a", { tokens: { access_token: "t", token_type: "bearer" } });
    store.update("b", { state: "s" });
    expect(createOAuthStore(storage).read("a").tokens?.access_token).toBe("t");
    store.update("b", { state: undefined });
    expect(store.ids()).toEqual(["a"]);
    store.clear();
    expect(map.has(OAUTH_KEY)).toBe(false);
    map.set(OAUTH_KEY, "{not json");
    expect(createOAuthStore(storage).read("a")).toEqual({});
  });
});
