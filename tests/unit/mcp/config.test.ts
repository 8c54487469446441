import { describe, expect, it } from "vitest";
import { exportMcpServersConfig, importMcpServersConfig, serverIdFor } from "@/lib/mcp/config";
import type { ServerConfig } from "@/lib/mcp/types";

const DESKTOP_CONFIG = {
  mcpServers: {
    shipping: { url: "https://mcp.example.com/shipping", headers: { Authorization: "Bearer s3cret" } },
    "Legacy SSE": { type: "sse", url: "https://old.example.com/sse" },
    filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { GITHUB_TOKEN: "ghp_x", LOG: "1" } },
    windsurf: { serverUrl: "https://w.example.com/mcp", disabled: true, autoApprove: ["x"] },
    claudeCode: { type: "http", url: "https://c.example.com/mcp?api_key=abc&v=2", headers: { "X-Token": "${API_TOKEN}" } },
  },
};

describe("importMcpServersConfig", () => {
  it("reads every dialect into ServerConfig", () => {
    const result = importMcpServersConfig(JSON.stringify(DESKTOP_CONFIG));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.servers).toEqual<ServerConfig[]>([
      {
        id: "shipping",
        name: "shipping",
        transport: "streamable-http",
        url: "https://mcp.example.com/shipping",
        headers: { Authorization: "Bearer s3cret" },
        enabled: true,
      },
      { id: "legacy-sse", name: "Legacy SSE", transport: "sse", url: "https://old.example.com/sse", headers: {}, enabled: true },
      {
        id: "filesystem",
        name: "filesystem",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
        env: { GITHUB_TOKEN: "ghp_x", LOG: "1" },
        enabled: true,
      },
      { id: "windsurf", name: "windsurf", transport: "streamable-http", url: "https://w.example.com/mcp", headers: {}, enabled: false },
      {
        id: "claudecode",
        name: "claudeCode",
        transport: "streamable-http",
        url: "https://c.example.com/mcp?api_key=abc&v=2",
        headers: { "X-Token": "${API_TOKEN}" },
        enabled: true,
      },
    ]);
    expect(result.warnings).toEqual([
      "mcpServers.windsurf: ignored autoApprove",
      "mcpServers.claudeCode.headers.X-Token holds a placeholder (${API_TOKEN}); fill it in before connecting",
    ]);
  });

  it("accepts VS Code's `servers` key and avoids existing ids", () => {
    const result = importMcpServersConfig(
      { servers: { shipping: { type: "http", url: "http://localhost:3000/api/demo-mcp/shipping" } } },
      { existingIds: ["shipping"] },
    );
    expect(result.ok && result.servers[0]?.id).toBe("shipping-2");
  });

  it.each<[string, unknown, string[]]>([
    ["bad JSON", "{ nope", ["not valid JSON: "]],
    ["no mcpServers", { other: 1 }, ['(root): expected an object with an "mcpServers" key']],
    ["servers not a record", { servers: 3 }, ["servers: Invalid input: expected record, received number"]],
    ["an array", [], ['(root): expected an object with an "mcpServers" key']],
    ["url and command", { mcpServers: { a: { url: "https://x.example", command: "x" } } }, ["mcpServers.a: has both url and command; keep one"]],
    ["neither", { mcpServers: { a: {} } }, ["mcpServers.a: needs a url (remote server) or a command (local stdio server)"]],
    ["ftp url", { mcpServers: { a: { url: "ftp://x" } } }, ['mcpServers.a.url: "ftp://x" is not an http(s) URL']],
    [
      "unknown type",
      { mcpServers: { a: { type: "websocket", url: "https://x.example" } } },
      ['mcpServers.a.type: unknown transport "websocket" (use http, sse or stdio)'],
    ],
    ["bad args", { mcpServers: { "my server": { command: "x", args: ["ok", 3] } } }, ['mcpServers["my server"].args[1]: must be a string']],
    ["bad header", { mcpServers: { a: { url: "https://x.example", headers: { A: 1 } } } }, ["mcpServers.a.headers.A: must be a string"]],
  ])("reports %s with a path", (_label, input, expected) => {
    const result = importMcpServersConfig(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expected.forEach((fragment, i) => expect(result.errors[i]).toContain(fragment));
    expect(result.errors).toHaveLength(expected.length);
  });
});

describe("exportMcpServersConfig", () => {
  const servers: ServerConfig[] = [
    {
      id: "shipping",
      name: "shipping",
      transport: "streamable-http",
      url: "https://mcp.example.com/shipping?token=t1&v=2",
      headers: { Authorization: "Bearer s3cret", "X-Trace": "1" },
      enabled: true,
    },
    { id: "legacy", name: "legacy", transport: "sse", url: "https://old.example.com/sse", headers: {}, enabled: false },
    { id: "fs", name: "fs", transport: "stdio", command: "npx", args: ["-y", "server"], env: { API_KEY: "k", LOG: "1" }, cwd: "/tmp", enabled: true },
  ];

  it("round-trips through import", () => {
    const { config, omitted } = exportMcpServersConfig(servers);
    expect(omitted).toEqual([]);
    expect(config.mcpServers.shipping).toEqual({ type: "http", url: servers[0]?.url, headers: servers[0]?.headers });
    expect(config.mcpServers.legacy).toEqual({ type: "sse", url: "https://old.example.com/sse", disabled: true });
    const back = importMcpServersConfig(JSON.stringify(config));
    expect(back.ok && back.servers).toEqual(servers);
  });

  it("leaves secrets out when asked, and says which", () => {
    const { config, omitted } = exportMcpServersConfig(servers, { omitSecrets: true });
    expect(config.mcpServers.shipping).toEqual({ type: "http", url: "https://mcp.example.com/shipping?v=2", headers: { "X-Trace": "1" } });
    expect(config.mcpServers.fs).toMatchObject({ env: { LOG: "1" } });
    expect(omitted).toEqual(["mcpServers.shipping.headers.Authorization", "mcpServers.shipping.url?token", "mcpServers.fs.env.API_KEY"]);
    expect(JSON.stringify(config)).not.toMatch(/s3cret|t1|"k"/);
  });

  it("keeps duplicate names apart", () => {
    const twice = exportMcpServersConfig([servers[1] as ServerConfig, { ...(servers[1] as ServerConfig), id: "legacy-2" }]);
    expect(Object.keys(twice.config.mcpServers)).toEqual(["legacy", "legacy (2)"]);
    expect(serverIdFor("Ünïcode  Server!", new Set())).toBe("n-code-server");
  });
});

describe("protocolEra in mcp.json", () => {
  const file = (entries: Record<string, unknown>) => JSON.stringify({ mcpServers: entries });

  it("forces a remote server's era, keeps auto as no setting, and exports what it read", () => {
    const result = importMcpServersConfig(
      file({
        now: { type: "http", url: "https://a.example/mcp", protocolEra: "modern" },
        old: { type: "http", url: "https://b.example/mcp", protocolEra: "legacy" },
        either: { type: "http", url: "https://c.example/mcp", protocolEra: "auto" },
      }),
    );
    if (!result.ok) throw new Error(result.errors.join("; "));
    expect(result.warnings).toEqual([]);
    expect(result.servers.map((s) => [s.name, s.protocolEra])).toEqual([
      ["now", "modern"],
      ["old", "legacy"],
      ["either", undefined],
    ]);
    const { config } = exportMcpServersConfig(result.servers);
    expect(config.mcpServers.now).toEqual({ type: "http", url: "https://a.example/mcp", protocolEra: "modern" });
    expect(config.mcpServers.either).toEqual({ type: "http", url: "https://c.example/mcp" });
  });

  it("refuses an era it does not know, naming the field, and ignores one on stdio and SSE with a warning", () => {
    const bad = importMcpServersConfig(file({ s: { type: "http", url: "https://a.example/mcp", protocolEra: "2026" } }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors).toEqual(['mcpServers.s.protocolEra: must be "auto", "modern" or "legacy"']);
    const local = importMcpServersConfig(
      file({ fs: { command: "npx", args: ["server"], protocolEra: "modern" }, old: { type: "sse", url: "https://o.example/sse", protocolEra: "legacy" } }),
    );
    if (!local.ok) throw new Error(local.errors.join("; "));
    expect(local.servers.map((s) => s.protocolEra)).toEqual([undefined, undefined]);
    expect(local.warnings).toEqual([
      "mcpServers.fs.protocolEra: ignored; only Streamable HTTP servers take an era setting (a local server's era is found on its own connection; legacy SSE is 2025-11-25)",
      "mcpServers.old.protocolEra: ignored; only Streamable HTTP servers take an era setting (a local server's era is found on its own connection; legacy SSE is 2025-11-25)",
    ]);
  });
});
