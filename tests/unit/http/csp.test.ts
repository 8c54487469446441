import { describe, expect, it } from "vitest";
import { buildCsp, CONNECT_COOKIE, formatConnectOrigins, parseConnectOrigins } from "@/lib/http/csp";
import { allowedConnectOrigins, connectOriginsCookie } from "@/lib/mcp/browser/connect-origins";
import type { ServerConfig } from "@/lib/mcp/types";

describe("Content-Security-Policy", () => {
  it("is strict: nonce'd scripts only, no eval, no framing, no plugins, workers from self and blob:", () => {
    const policy = buildCsp({ nonce: "abc123==", connectOrigins: ["https://mcp.example.com"] });
    expect(policy).toBe(
      [
        "default-src 'self'",
        "script-src 'self' 'nonce-abc123==' 'strict-dynamic'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self' https://mcp.example.com",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
    expect(buildCsp({ nonce: "n", connectOrigins: [], dev: true })).toContain("'unsafe-eval'");
  });

  it("takes only well-formed http(s) origins from the cookie: nothing can inject a directive", () => {
    const hostile = encodeURIComponent(
      "https://ok.example; script-src * https://a.example/path http://u:p@b.example javascript:alert(1) 'unsafe-inline' https://c.example:8443",
    );
    expect(parseConnectOrigins(hostile)).toEqual(["https://c.example:8443"]);
    // The URL parser keeps ";" and "," in a host name; either would end the directive.
    expect(parseConnectOrigins(encodeURIComponent("https://ok.example;script-src https://x.example,y"))).toEqual([]);
    expect(parseConnectOrigins(encodeURIComponent("http://[::1]:8080 https://xn--bcher-kva.example"))).toEqual([
      "http://[::1]:8080",
      "https://xn--bcher-kva.example",
    ]);
    expect(parseConnectOrigins("%E0%A4%A")).toEqual([]);
    expect(parseConnectOrigins(undefined)).toEqual([]);
    const many = formatConnectOrigins(Array.from({ length: 50 }, (_, i) => `https://s${i}.example/mcp`));
    expect(parseConnectOrigins(many)).toHaveLength(32);
  });
});

describe("connect origins kept by the page", () => {
  const server = (id: string, url: string): ServerConfig => ({ id, name: id, transport: "streamable-http", url, enabled: true });

  it("writes every remote server's origin, never the app's own or a stdio command", () => {
    const cookie = connectOriginsCookie(
      [
        server("a", "https://mcp.example.com/mcp"),
        server("demo", "http://127.0.0.1:3000/api/demo-mcp/lab"),
        server("b", "http://127.0.0.1:9000/mcp"),
        { id: "m", name: "m", transport: "stdio", command: "npx", enabled: true },
      ],
      "http://127.0.0.1:3000",
    );
    expect(cookie).toMatch(new RegExp(`^${CONNECT_COOKIE}=[^;]+; Path=/; Max-Age=31536000; SameSite=Strict$`));
    const value = cookie.slice(CONNECT_COOKIE.length + 1, cookie.indexOf(";"));
    expect(parseConnectOrigins(value)).toEqual(["https://mcp.example.com", "http://127.0.0.1:9000"]);
    expect([...allowedConnectOrigins(`theme=dark; ${CONNECT_COOKIE}=${value}; other=1`)]).toEqual(["https://mcp.example.com", "http://127.0.0.1:9000"]);
    expect(allowedConnectOrigins("").size).toBe(0);
  });
});
