import { describe, expect, it } from "vitest";
import type { ServerConfig } from "@/lib/mcp/types";
import { buildShareState } from "@/lib/share/build";
import { planSharedServers, slotKey, toServerInput } from "@/lib/share/restore";
import type { ShareServer } from "@/lib/share/schema";
import { describeShare, findSecretLookalikes } from "@/lib/share/summary";
import { remoteWithSecrets, stdioWithSecrets } from "./helpers";

const demo: ServerConfig = { id: "shipping", name: "shipping", transport: "streamable-http", url: "/api/demo-mcp/shipping", headers: {}, enabled: true };
const shared = buildShareState({ servers: [demo, remoteWithSecrets, stdioWithSecrets, { ...demo, id: "news", name: "news", url: "/api/demo-mcp/news" }] }).state
  .servers;

describe("planSharedServers", () => {
  it("spots registered servers (ignoring their secrets), ready ones, ones needing secrets and local commands", () => {
    const registered: ServerConfig[] = [demo, { ...remoteWithSecrets, name: "my shipping" }];
    expect(planSharedServers(shared, registered).map((p) => [p.server.name, p.status, p.registeredName])).toEqual([
      ["shipping", "registered", "shipping"],
      ["shipping", "registered", "my shipping"],
      ["memory", "local-command", undefined],
      ["news", "ready", undefined],
    ]);
    expect(planSharedServers(shared, []).map((p) => p.status)).toEqual(["ready", "needs-connection", "local-command", "ready"]);
  });
});

describe("toServerInput", () => {
  const remote = shared[1] as ShareServer;
  const stdio = shared[2] as ShareServer;

  it("puts the secrets the person typed where the original had them", () => {
    const values = {
      [slotKey({ where: "header", name: "Authorization" })]: "Bearer mine",
      [slotKey({ where: "query", name: "api_key" })]: "k1",
      [slotKey({ where: "url-credentials", name: "userinfo" })]: "me:pw",
    };
    expect(toServerInput(remote, values, [demo])).toEqual({
      name: "shipping (shared)",
      transport: "streamable-http",
      url: "https://me:pw@mcp.example.com/mcp?region=eu&api_key=k1",
      headers: { Authorization: "Bearer mine" },
      enabled: true,
    });
  });

  it("fills stdio env and flag arguments; blanks stay out", () => {
    const values = { "env:GITHUB_TOKEN": "ghp_mine", "env:PATH": "", "arg:--token": "t1", "arg:--api-key": "t2", "arg:API_TOKEN": "t3" };
    expect(toServerInput(stdio, values, [])).toEqual({
      name: "memory",
      transport: "stdio",
      command: "npx",
      args: ["-y", "@example/server", "--token", "t1", "--api-key=t2", "API_TOKEN=t3", "[redacted]", "https://x.example.com/"],
      env: { GITHUB_TOKEN: "ghp_mine" },
      enabled: true,
    });
  });
});

describe("describeShare and findSecretLookalikes", () => {
  it("says what a share holds", () => {
    const { state } = buildShareState({
      servers: [demo, remoteWithSecrets],
      toolSnapshots: [
        {
          name: "shipping",
          tools: [
            { name: "a", inputSchema: {} },
            { name: "b", inputSchema: {} },
          ],
        },
      ],
      code: "a\nb",
      model: { provider: "openai", id: "gpt-5" },
      runs: [{}],
    });
    expect(describeShare(state)).toEqual([
      "2 servers (1 needs connection)",
      "2 tool schemas as seen when shared",
      "code, 2 lines (not run until you click Run)",
      "model openai / gpt-5 (no API key)",
      "1 recorded run, replayable offline",
    ]);
  });

  it("points at credential-looking text the person wrote, without changing it", () => {
    const code = 'const key = "sk-proj-abcdefghijklmnopqrstuv";\nreturn 1;';
    const { state } = buildShareState({ code, systemPrompt: "Use ghp_abcdefghijklmnopqrstuvwxyz0123 for GitHub." });
    expect(state.code).toBe(code);
    expect(findSecretLookalikes(state)).toEqual(["code, line 1", "system prompt, line 1"]);
    expect(findSecretLookalikes(buildShareState({ code: "const basic = 'basic configuration';" }).state)).toEqual([]);
  });
});
