import { describe, expect, it } from "vitest";
import { isSecretKey, redactHeaders, redactSecrets, REDACTED } from "@/lib/secrets/redact";

describe("isSecretKey", () => {
  it.each([
    "Authorization",
    "proxy-authorization",
    "Cookie",
    "set-cookie",
    "X-API-Key",
    "api_key",
    "apiKey",
    "APIKey",
    "x-auth-token",
    "access_token",
    "refreshToken",
    "token",
    "client_secret",
    "clientSecret",
    "password",
    "DB_PASSWORD",
    "privateKey",
    "AWS_ACCESS_KEY_ID",
    "credentials",
  ])("%s is a secret", (key) => expect(isSecretKey(key)).toBe(true));

  it.each(["content-type", "mcp-session-id", "max_tokens", "tokenCount", "token_type", "keyboard", "monkey", "name", "url"])("%s is not", (key) =>
    expect(isSecretKey(key)).toBe(false),
  );
});

describe("redactHeaders", () => {
  it("redacts secret headers from every header shape", () => {
    const expected = { authorization: REDACTED, "content-type": "application/json", "x-api-key": REDACTED, "mcp-session-id": "abc" };
    const record = { authorization: "Bearer t", "content-type": "application/json", "x-api-key": "k", "mcp-session-id": "abc" };
    expect(redactHeaders(record)).toEqual(expected);
    expect(redactHeaders(new Headers(record))).toEqual(expected);
    expect(redactHeaders(Object.entries(record))).toEqual(expected);
    expect(redactHeaders({ "set-cookie": ["a=1", "b=2"], accept: "x", skipped: undefined })).toEqual({ "set-cookie": REDACTED, accept: "x" });
  });

  it("redacts credential-looking values under innocent names", () => {
    expect(redactHeaders({ "x-custom": "Bearer abc.def" })).toEqual({ "x-custom": REDACTED });
  });
});

describe("redactSecrets", () => {
  it("redacts nested records without touching the original", () => {
    const input = {
      url: "https://mcp.example.com",
      headers: { Authorization: "Bearer t", Accept: "*/*" },
      env: { GITHUB_TOKEN: "ghp_x", PATH: "/usr/bin" },
      servers: [{ name: "a", auth: { user: "u", password: "p" } }],
      usage: { max_tokens: 100 },
      fetched: new Headers({ cookie: "a=1" }),
    };
    const copy = structuredClone({ ...input, fetched: undefined });
    expect(redactSecrets(input)).toEqual({
      url: "https://mcp.example.com",
      headers: { Authorization: REDACTED, Accept: "*/*" },
      env: { GITHUB_TOKEN: REDACTED, PATH: "/usr/bin" },
      servers: [{ name: "a", auth: REDACTED }],
      usage: { max_tokens: 100 },
      fetched: { cookie: REDACTED },
    });
    expect({ ...input, fetched: undefined }).toEqual(copy);
  });

  it("survives cycles and keeps shared (non-cyclic) values", () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic)).toEqual({ shared: { a: 1 }, again: { a: 1 }, self: "[circular]" });
    expect(redactSecrets("Basic dXNlcjpwYXNz")).toBe(REDACTED);
    expect(redactSecrets(42)).toBe(42);
  });
});

describe("redactSecrets and odd keys", () => {
  it("keeps a __proto__ key as data instead of turning it into the copy's prototype", () => {
    const input = JSON.parse('{"__proto__":{"polluted":1,"token":"abc"},"a":2}') as Record<string, unknown>;
    const out = redactSecrets(input);
    expect(Object.keys(out)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: 1, token: "[redacted]" });
  });
});
