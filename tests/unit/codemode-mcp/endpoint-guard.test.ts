/**
 * The app's code-mode endpoint (/api/codemode/mcp) as a stranger meets it: the bearer token is
 * checked before the app reads its config or starts a server, and a server that fails to start
 * is described to the operator's log, never to the caller (the config's path, a child's stderr).
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleCodeModeMcp } from "@/lib/codemode-mcp/server/endpoint";
import { RouteError } from "@/lib/http/route-error";

const TOKEN = "operator-token-0123456789abcdef01234567";
const SECRET = "postgres://admin:hunter2-SECRET@db.internal/app";

function failingConfig(): { env: Record<string, string>; marker: string; configPath: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-endpoint-guard-"));
  const marker = path.join(dir, "started");
  const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "yes"); console.error("DATABASE_URL=" + process.env.DATABASE_URL); process.exit(3);`;
  const configPath = path.join(dir, "mcp.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { db: { command: process.execPath, args: ["-e", script], env: { DATABASE_URL: SECRET } } } }));
  return { env: { CMP_CODEMODE_CONFIG: configPath, CMP_CODEMODE_TOKEN: TOKEN }, marker, configPath };
}

const initialize = (token?: string) =>
  new Request("http://127.0.0.1:3000/api/codemode/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });

afterEach(() => vi.restoreAllMocks());

describe("the code-mode endpoint, before the token", () => {
  it("answers a caller without the token (or with a wrong one) 401 and starts nothing, 20 times over", async () => {
    const { env, marker } = failingConfig();
    for (let i = 0; i < 20; i++) {
      const response = await handleCodeModeMcp(initialize(i % 2 === 0 ? undefined : "guess"), env);
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain("mcp.json");
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
  });

  it("with the token, a server that fails to start is a 503 that quotes nothing; the operator's log has the story", async () => {
    const { env, marker, configPath } = failingConfig();
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const failure = await handleCodeModeMcp(initialize(TOKEN), env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RouteError);
    const error = failure as RouteError;
    expect(error.code).toBe("unavailable:codemode");
    const body = await error.toResponse().text();
    for (const leak of [configPath, "hunter2", "DATABASE_URL", path.dirname(configPath)]) expect(body).not.toContain(leak);
    expect(body).toContain("the app's log says why");
    expect(existsSync(marker)).toBe(true);
    expect(logged.join("\n")).toContain("code-mode MCP endpoint: could not start");
  });
});
