import { describe, expect, it } from "vitest";
import { createProxyFetch } from "@/lib/mcp/proxy/proxy-fetch";
import { buildDownstreamHeaders, buildUpstreamHeaders, toProxyRequestHeaders } from "@/lib/mcp/proxy/proxy-headers";

describe("proxy headers", () => {
  it("round-trips a client's headers through the wire form", () => {
    const client = new Headers({ "content-type": "application/json", authorization: "Bearer t", "x-api-key": "k", "mcp-session-id": "s" });
    const wire = toProxyRequestHeaders(client, "https://mcp.example.com/mcp");
    expect(Object.fromEntries(wire)).toEqual({
      "content-type": "application/json",
      "x-mcp-header-authorization": "Bearer t",
      "x-mcp-header-x-api-key": "k",
      "mcp-session-id": "s",
      "x-mcp-target": "https://mcp.example.com/mcp",
    });
    wire.set("cookie", "app=1");
    expect(buildUpstreamHeaders(wire)).toEqual({ "content-type": "application/json", authorization: "Bearer t", "x-api-key": "k", "mcp-session-id": "s" });
  });

  it("never forwards the browser's own Authorization (Basic credentials of a site in front of the app; finding 5)", () => {
    const wire = new Headers({
      authorization: "Basic YWRtaW46aHVudGVyMg==",
      "x-mcp-target": "https://mcp.example.com/mcp",
      "content-type": "application/json",
    });
    expect(buildUpstreamHeaders(wire)).toEqual({ "content-type": "application/json" });
    // Only the header configured for the server travels, in the wire form the page uses.
    wire.set("x-mcp-header-authorization", "Bearer configured");
    expect(buildUpstreamHeaders(wire)).toEqual({ "content-type": "application/json", authorization: "Bearer configured" });
  });

  it("refuses hop-by-hop and spoofing headers through x-mcp-header-*", () => {
    const wire = new Headers({
      "x-mcp-header-host": "a",
      "x-mcp-header-x-forwarded-for": "1.2.3.4",
      "x-mcp-header-transfer-encoding": "chunked",
      "x-mcp-header-": "x",
    });
    expect(buildUpstreamHeaders(wire)).toEqual({});
  });

  it("returns only MCP response headers and marks SSE unbuffered", () => {
    const out = buildDownstreamHeaders({
      "content-type": "text/event-stream",
      "set-cookie": ["a=1"],
      "mcp-session-id": "s",
      server: "nginx",
      "www-authenticate": "Bearer",
    });
    expect(Object.fromEntries(out)).toEqual({
      "content-type": "text/event-stream",
      "mcp-session-id": "s",
      "www-authenticate": "Bearer",
      "x-accel-buffering": "no",
    });
  });
});

describe("createProxyFetch", () => {
  it("sends the request to the proxy with the real URL in x-mcp-target", async () => {
    const calls: Array<{ url: string; init?: RequestInit }> = [];
    const proxied = createProxyFetch({
      proxyUrl: "https://app.example/api/mcp/proxy",
      fetch: (url, init) => {
        calls.push({ url: String(url), init });
        return Promise.resolve(new Response("ok"));
      },
    });
    await proxied(new URL("https://mcp.example.com/mcp?x=1"), { method: "POST", body: "{}", headers: { accept: "application/json", "x-custom": "1" } });
    expect(calls[0]?.url).toBe("https://app.example/api/mcp/proxy");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(Object.fromEntries(new Headers(calls[0]?.init?.headers))).toEqual({
      accept: "application/json",
      "x-mcp-header-x-custom": "1",
      "x-mcp-target": "https://mcp.example.com/mcp?x=1",
    });
  });
});
