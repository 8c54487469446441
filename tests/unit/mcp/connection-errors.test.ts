import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { classifyFailure, ConnectionError, displayUrl, parseProxyError } from "@/lib/mcp/connection-errors";
import type { FailureContext, HttpFailure } from "@/lib/mcp/connection-errors";

const URL_ = "https://user:pw@mcp.example/v1/mcp?api_key=k";
const ctx = (extra: Partial<FailureContext> = {}): FailureContext => ({
  url: URL_,
  via: "direct",
  timeoutMs: 15_000,
  supportedVersions: ["2025-11-25"],
  ...extra,
});
const http = (status: number, body: string, contentType = "application/json"): HttpFailure => ({
  method: "POST",
  status,
  contentType,
  body,
  wwwAuthenticate: null,
});
const proxyAnswer = (status: number, code: string, cause?: string) =>
  http(status, JSON.stringify({ error: { code, message: `Could not reach https://mcp.example/v1/mcp?api_key=k: boom`, ...(cause ? { cause } : {}) } }));
const httpError = (status: number, message = "Error POSTing to endpoint: nope") => Object.assign(new Error(message), { code: status });

describe("classifyFailure", () => {
  it("names the proxy's causes", () => {
    const kinds = ["dns", "refused", "tls", "timeout", "redirect", "reset"].map(
      (cause) => classifyFailure(httpError(502), ctx({ via: "proxy", http: proxyAnswer(502, "unreachable:proxy", cause) })).kind,
    );
    expect(kinds).toEqual(["dns", "refused", "tls", "timeout", "not-mcp", "cors-or-network"]);
    expect(classifyFailure(httpError(403), ctx({ via: "proxy", http: proxyAnswer(403, "refused:proxy") })).kind).toBe("refused-by-proxy");
  });

  it("does not take an upstream's JSON error for the proxy's", () => {
    const upstream = http(403, JSON.stringify({ error: { code: "forbidden", message: "no" } }));
    expect(classifyFailure(httpError(403), ctx({ via: "proxy", http: upstream })).kind).toBe("forbidden");
    expect(parseProxyError(upstream)).toBeUndefined();
  });

  it("classifies statuses", () => {
    expect(classifyFailure(httpError(500), ctx({ http: http(500, "Internal <b>error</b>", "text/plain") }))).toMatchObject({ kind: "protocol", status: 500 });
    expect(classifyFailure(httpError(504), ctx()).kind).toBe("timeout");
    expect(classifyFailure(httpError(405), ctx()).kind).toBe("not-mcp");
    const redirect = classifyFailure(httpError(302, "Error POSTing to endpoint: Redirect to https://other.example/mcp not followed"), ctx());
    expect(redirect.kind).toBe("not-mcp");
    expect(redirect.message).toMatch(/Redirect to https:\/\/other\.example\/mcp not followed/);
  });

  it("hints at OAuth when a 401 asks for a bearer token", () => {
    const error = classifyFailure(
      httpError(401),
      ctx({ http: { ...http(401, ""), wwwAuthenticate: 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"' } }),
    );
    expect(error.message).toMatch(/add an Authorization header.*OAuth/);
  });

  it("tells a browser network failure (no code) apart from a protocol failure", () => {
    expect(classifyFailure(new TypeError("Failed to fetch"), ctx()).kind).toBe("cors-or-network");
    expect(classifyFailure(new McpError(-32602, "bad params"), ctx()).kind).toBe("protocol");
    expect(classifyFailure(new SyntaxError("Unexpected token <"), ctx()).kind).toBe("not-mcp");
    expect(classifyFailure(new McpError(-32001, "Request timed out"), ctx({ timeoutMs: 2_000 })).message).toMatch(/within 2 s/);
  });

  it("keeps a ConnectionError as it is", () => {
    const error = new ConnectionError("tls", "x");
    expect(classifyFailure(error, ctx())).toBe(error);
    expect(error.toJSON()).toEqual({ kind: "tls", message: "x" });
  });

  it("never shows credentials or the query string", () => {
    expect(displayUrl(URL_)).toBe("https://mcp.example/v1/mcp");
    const proxied = classifyFailure(
      httpError(502),
      ctx({ via: "proxy", url: "https://mcp.example/v1/mcp?api_key=k", http: proxyAnswer(502, "unreachable:proxy", "dns") }),
    );
    expect(proxied.message).toMatch(/^Could not reach https:\/\/mcp\.example\/v1\/mcp: boom/);
    for (const error of [
      proxied,
      classifyFailure(new TypeError("x"), ctx()),
      classifyFailure(httpError(401), ctx()),
      classifyFailure(new Error("?"), ctx({ timedOut: true })),
    ]) {
      expect(error.message).not.toMatch(/pw|api_key/);
    }
  });
});
