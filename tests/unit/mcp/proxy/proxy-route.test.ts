/** The /api/mcp/proxy route as a whole, in hosted mode: guard, per-client rate limit, then the proxy (finding 3). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/api/mcp/proxy/route";
import { resetProxyLimiters } from "@/lib/mcp/proxy/server/proxy-limits";
import { toRouteError } from "@/lib/mcp/proxy/server/proxy";

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

describe("POST /api/mcp/proxy bodies", () => {
  const post = (contentType: string, origin: string | undefined) =>
    POST(
      new Request("http://127.0.0.1/api/mcp/proxy", {
        method: "POST",
        headers: { "x-mcp-target": "http://10.0.0.1/token", "content-type": contentType, ...(origin ? { origin } : {}) },
        body: "grant_type=authorization_code&code=x",
      }),
      undefined,
    );
  const code = async (response: Response) => {
    const { error } = (await response.clone().json()) as { error: { code: string } };
    return error.code;
  };
  const message = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

  it("takes an OAuth form (token, revocation) from the page itself, and still refuses text/plain and forged origins", async () => {
    vi.stubEnv("CMP_MODE", "hosted");
    vi.stubEnv("CMP_SERVER", "serve");
    resetProxyLimiters();
    // The form passes the guard and reaches the proxy, which refuses the private target in hosted mode.
    const form = await post("application/x-www-form-urlencoded", "http://127.0.0.1");
    expect([form.status, await code(form)]).toEqual([403, "refused:proxy"]);
    expect(await message(form)).toMatch(/^Refused to proxy to http:\/\/10\.0\.0\.1: /);
    const plain = await post("text/plain", "http://127.0.0.1");
    expect([plain.status, await code(plain)]).toEqual([415, "unsupported_media_type:proxy"]);
    const forged = await post("application/x-www-form-urlencoded", "http://evil.example");
    expect([forged.status, await code(forged)]).toEqual([403, "refused:proxy"]);
    expect(await message(forged)).toMatch(/only the playground's own page/);
    const noOrigin = await post("application/x-www-form-urlencoded", undefined);
    expect(await message(noOrigin)).toMatch(/no Origin header/);
  });
});

describe("the proxy's errors name the target by its origin only", () => {
  const SECRET = "sk-SECRET-123";
  const get = (target: string) => GET(new Request("http://127.0.0.1/api/mcp/proxy", { headers: { "x-mcp-target": target } }), undefined);
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

  it("a refused target (hosted, private address), an unreachable one and a malformed one quote no path, query or credentials", async () => {
    vi.stubEnv("CMP_MODE", "hosted");
    resetProxyLimiters();
    const refused = await errorOf(await get(`http://10.0.0.1/mcp?api_key=${SECRET}`));
    expect(refused.code).toBe("refused:proxy");
    expect(refused.message).toMatch(/^Refused to proxy to http:\/\/10\.0\.0\.1: /);
    const refusedError = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const unreachable = toRouteError(refusedError, `http://127.0.0.1:9/v1/${SECRET}/mcp?api_key=${SECRET}`);
    expect(unreachable.code).toBe("unreachable:proxy");
    expect(unreachable.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:9: /);
    const malformed = await errorOf(await get(`not a url ${SECRET}`));
    for (const error of [refused, unreachable, malformed]) expect(error.message).not.toContain(SECRET);
  });
});
