import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importMcpServersConfig } from "@/lib/mcp/config";
import { readShareFile, SHARE_FILE_FORMAT, shareStateToFile } from "@/lib/share/file-format";
import { shareServersToMcpJson } from "@/lib/share/mcp-json";
import type { ShareState } from "@/lib/share/schema";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "v1-state.json"), "utf8")) as ShareState;

describe("share files", () => {
  it("round-trip, with the format marker first", () => {
    const text = shareStateToFile(base);
    expect(text.startsWith(`{\n  "format": "${SHARE_FILE_FORMAT}",\n  "version": 1,`)).toBe(true);
    expect(readShareFile(text)).toEqual({ ok: true, state: base, warnings: [] });
  });

  it("accept the bare state JSON too", () => {
    expect(readShareFile(JSON.stringify(base)).ok).toBe(true);
  });

  it("refuse other JSON files, non-JSON and huge files clearly", () => {
    expect(readShareFile(JSON.stringify({ format: "something-else", version: 1 }))).toMatchObject({ ok: false, error: { code: "format" } });
    expect(readShareFile(JSON.stringify({ mcpServers: {} }))).toMatchObject({ ok: false, error: { code: "format" } });
    expect(readShareFile("not json")).toMatchObject({ ok: false, error: { code: "format" } });
    expect(readShareFile(" ".repeat(9 * 1024 * 1024))).toMatchObject({ ok: false, error: { code: "too_large" } });
  });

  it("go through the same allow-list as links", () => {
    const tampered = JSON.stringify({ ...base, servers: [{ ...base.servers[0], headers: { Authorization: "Bearer x" } }] });
    const result = readShareFile(tampered);
    expect(result.ok && JSON.stringify(result.state)).not.toContain("Bearer");
  });
});

describe("shareServersToMcpJson", () => {
  it("writes an mcp.json with placeholders where secrets were, which our import reads back", () => {
    const out = shareServersToMcpJson(base.servers, { baseUrl: "https://app.example" });
    expect(out.config).toEqual({
      mcpServers: {
        shipping: { type: "http", url: "https://app.example/api/demo-mcp/shipping" },
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: "${AUTHORIZATION}" } },
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
      },
    });
    expect(out.missing).toEqual([]);
    const imported = importMcpServersConfig(out.text);
    expect(imported.ok && imported.warnings).toEqual([
      "mcpServers.github.headers.Authorization holds a placeholder (${AUTHORIZATION}); fill it in before connecting",
    ]);
  });

  it("lists the secrets a file cannot hold", () => {
    const out = shareServersToMcpJson([
      { name: "q", transport: "sse", url: "https://h.example/sse", hadSecrets: true, secrets: [{ where: "query", name: "api_key" }] },
      {
        name: "c",
        transport: "stdio",
        command: "x",
        args: ["--token", "[redacted]"],
        hadSecrets: true,
        secrets: [
          { where: "arg", name: "--token" },
          { where: "env", name: "GITHUB_TOKEN" },
        ],
      },
    ]);
    expect(out.missing).toEqual(["q: URL query parameter api_key", "c: argument --token"]);
    expect(out.config.mcpServers.c).toEqual({ command: "x", args: ["--token", "[redacted]"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } });
  });
});
