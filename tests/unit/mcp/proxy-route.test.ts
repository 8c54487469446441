/** The /api/mcp/proxy route as a whole, in hosted mode: guard, per-client rate limit, then the proxy (finding 3). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/mcp/proxy/route";
import { resetProxyLimiters } from "@/lib/mcp/server/proxy-limits";

afterEach(() => {
  vi.unstubAllEnvs();
  resetProxyLimiters();
});

// Nothing listens on play.example:80 in this process, so the request is hosted whatever CMP_MODE says.
const request = (client: string) =>
  new Request("http://127.0.0.1/api/mcp/proxy", {
    headers: { "x-mcp-target": "http://10.0.0.1/mcp", "x-forwarded-for": client },
  });

describe("GET /api/mcp/proxy in hosted mode", () => {
  it("limits each client, refuses private targets, and says when to come back", async () => {
    vi.stubEnv("CMP_MODE", "hosted");
    vi.stubEnv("CMP_SERVER", "serve");
    vi.stubEnv("MCP_PROXY_RATE_PER_MINUTE", "2");
    resetProxyLimiters();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await GET(request("203.0.113.1"), undefined)).status);
    // Two reach the proxy (which refuses the private target in hosted mode), the third is limited.
    expect(statuses).toEqual([403, 403, 429]);
    const limited = await GET(request("203.0.113.1"), undefined);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited:proxy");
    // Another client has its own allowance.
    expect((await GET(request("203.0.113.2"), undefined)).status).toBe(403);
  });
});
