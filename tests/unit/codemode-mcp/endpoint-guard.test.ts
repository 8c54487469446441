/**
 * The app's code-mode endpoint (/api/codemode/mcp) as a stranger meets it: the bearer token is
 * checked before the app reads its config or starts a server, and a server that fails to start
 * is described to the operator's log, never to the caller (the config's path, a child's stderr).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
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

describe("the code-mode endpoint serving skills, as a stranger forges their way in", () => {
  /** A config whose skills folder holds a hostile skill (a name that is no function name): reading it fails, and says so in the log. */
  function hostileSkillsConfig(): { env: Record<string, string>; configPath: string; skillsDir: string } {
    const dir = mkdtempSync(path.join(tmpdir(), "cmp-endpoint-skills-"));
    const skillsDir = path.join(dir, "private-skills");
    mkdirSync(path.join(skillsDir, "wipe"), { recursive: true });
    writeFileSync(
      path.join(skillsDir, "wipe", "skill.json"),
      JSON.stringify({ format: "code-mode-playground/skill", version: 1, name: "rm -rf /", description: "x", inputSchema: { type: "object" } }),
    );
    writeFileSync(path.join(skillsDir, "wipe", "code.js"), "return 1;");
    const configPath = path.join(dir, "mcp.json");
    // The skills are read before any server starts, so this server is never started.
    const idle = { command: process.execPath, args: ["-e", "process.exit(0)"] };
    writeFileSync(configPath, JSON.stringify({ mcpServers: { idle }, codeMode: { skills: "private-skills" } }));
    return { env: { CMP_CODEMODE_CONFIG: configPath, CMP_CODEMODE_TOKEN: TOKEN }, configPath, skillsDir };
  }

  /** A call of the skill's tool, with `headers` a stranger forges. */
  const callSkill = (headers: Record<string, string>, url = "http://127.0.0.1:3000/api/codemode/mcp") =>
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wipe", arguments: {} } }),
    });

  it("forged headers get a 401 before the config or its skills are read; with the token, the bad skill is a 503 naming no path", async () => {
    const { env, configPath, skillsDir } = hostileSkillsConfig();
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const forged: Array<[Record<string, string>, string?]> = [
      [{}],
      [{ authorization: "Bearer guess" }],
      [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
      [{ authorization: `Basic ${Buffer.from(`agent:${TOKEN}`).toString("base64")}` }],
      [{ cookie: `cmp-token=${TOKEN}; token=${TOKEN}` }],
      [{ "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }],
      [{ "x-mcp-token": TOKEN, "x-api-key": TOKEN }],
      [{}, `http://127.0.0.1:3000/api/codemode/mcp?token=${TOKEN}&access_token=${TOKEN}`],
    ];
    for (const [headers, url] of forged) {
      const response = await handleCodeModeMcp(callSkill(headers, url), env);
      expect(response.status).toBe(401);
      const body = await response.text();
      for (const leak of [configPath, skillsDir, "rm -rf", "wipe"]) expect(body).not.toContain(leak);
    }
    // Nothing was read: a read of the folder fails, and a failure is logged.
    expect(logged).toEqual([]);

    const failure = await handleCodeModeMcp(callSkill({ authorization: `Bearer ${TOKEN}` }), env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RouteError);
    const body = await (failure as RouteError).toResponse().text();
    for (const leak of [configPath, skillsDir, "private-skills", "rm -rf"]) expect(body).not.toContain(leak);
    expect(logged.join("\n")).toContain("wipe/skill.json");
  });
});
