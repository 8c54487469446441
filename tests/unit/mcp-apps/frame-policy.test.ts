/** The policy an MCP App runs under (lib/mcp-apps/frame-policy.ts) and the frame page that carries it. */
import { describe, expect, it } from "vitest";
import { appCspFromMeta, cspFromQuery, frameQuery, framePolicy, MAX_APP_ORIGINS, policySource } from "@/lib/mcp-apps/frame-policy";
import { appFrameRoute } from "@/lib/routes/server/api-routes";

describe("frame-policy", () => {
  it("an app that declares nothing gets no network at all, in an opaque origin, framed only by the playground", () => {
    expect(framePolicy(appCspFromMeta(undefined))).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; " +
        "connect-src 'none'; frame-src 'none'; worker-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; " +
        "frame-ancestors 'self'; sandbox allow-scripts allow-forms",
    );
  });

  it("declared origins go into their directives, and nowhere else", () => {
    const csp = appCspFromMeta({
      connectDomains: ["https://api.example.com", "wss://live.example.com"],
      resourceDomains: ["https://*.cdn.example"],
      frameDomains: ["https://www.youtube.com/"],
    });
    expect(csp).toEqual({
      connect: ["https://api.example.com", "wss://live.example.com"],
      resource: ["https://*.cdn.example"],
      frame: ["https://www.youtube.com"],
    });
    const policy = framePolicy(csp);
    expect(policy).toContain("connect-src https://api.example.com wss://live.example.com;");
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example;");
    expect(policy).toContain("frame-src https://www.youtube.com;");
    expect(policy).toContain("default-src 'none';");
  });

  it("anything but a plain origin is dropped: keywords, wildcards, paths, other schemes, directive injection", () => {
    for (const bad of [
      "*",
      "'unsafe-eval'",
      "https://a.example; script-src *",
      "https://a.example, https://b.example",
      "https://a.example/path",
      "javascript:alert(1)",
      "data:",
      "https://user:pw@a.example",
      "https://*",
      "https://a.*.example",
      "ftp://a.example",
      "https://a.example 'unsafe-inline'",
      42,
      null,
      "x".repeat(400),
    ])
      expect(policySource(bad), String(bad)).toBeUndefined();
    expect(policySource(" HTTPS://API.Example.com:8443/ ")).toBe("https://api.example.com:8443");
    expect(policySource("http://[::1]:3000")).toBe("http://[::1]:3000");
  });

  it("the playground's own origin is never granted, and each list is capped", () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example`);
    const csp = appCspFromMeta({ connectDomains: ["http://127.0.0.1:3000", ...many], resourceDomains: "not a list" }, "http://127.0.0.1:3000");
    expect(csp.connect).not.toContain("http://127.0.0.1:3000");
    expect(csp.connect).toHaveLength(MAX_APP_ORIGINS);
    expect(csp.resource).toEqual([]);
  });

  it("the query round-trips, and a forged query is checked again", () => {
    const csp = appCspFromMeta({ connectDomains: ["https://api.example.com"], frameDomains: ["https://f.example"] });
    expect(cspFromQuery(new URLSearchParams(frameQuery(csp)), "http://127.0.0.1:3000")).toEqual(csp);
    const forged = new URLSearchParams("connect=*&connect=http://127.0.0.1:3000&resource=https://x.example;%20script-src%20*&frame=https://ok.example");
    expect(cspFromQuery(forged, "http://127.0.0.1:3000")).toEqual({ connect: [], resource: [], frame: ["https://ok.example"] });
  });

  it("the frame page: its policy from the checked query, a relay that takes HTML only from its parent, and a refused Host", async () => {
    const get = (query: string, host = "127.0.0.1:3000") =>
      appFrameRoute(new Request(`http://127.0.0.1:3000/api/mcp-apps/frame?${query}`, { headers: { host } }), { params: Promise.resolve({}) });
    const response = await get("connect=https://api.example.com&connect=*&connect=http://127.0.0.1:3000");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("connect-src https://api.example.com;");
    expect(policy).toContain("sandbox allow-scripts allow-forms");
    expect(policy).toContain("frame-ancestors 'self'");
    const html = await response.text();
    expect(html).toContain("event.source === parent");
    expect(html).toContain("ui/notifications/sandbox-proxy-ready");
    expect((await get("", "evil.example")).status).toBe(403);
  });
});
