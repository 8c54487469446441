/**
 * The code-mode MCP server as `npm run conformance` tests it (scripts/conformance.ts): over the
 * lab demo server, with one skill so the Skills extension is served, on loopback behind a proxy
 * that adds the operator's bearer token (the suite's runner sends none).
 */
import path from "node:path";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { startDemoHost } from "../lib/demo-servers/node/demo-host";
import { startLoopbackServer } from "../lib/http/node/loopback-server";
import { openCodeModeServer, readCodeModeConfig } from "../lib/codemode-mcp/node/open";
import { CodeModeHttpEndpoint } from "../lib/codemode-mcp/node/http-endpoint";
import { createCodeModeMcpServer } from "../lib/codemode-mcp/mcp-server";
import { skillsToFolder } from "../lib/skills/skill-file";
import type { Skill } from "../lib/skills/skill";
import { startBearerProxy } from "../tests/fixtures/bearer-proxy";

const TOKEN = "conformance-token-0123456789abcdef0123456789";
const AT = "2026-11-28T00:00:00.000Z";
const GREET: Skill = {
  name: "greet",
  description: "Greets someone through the lab's echo.",
  inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
  code: `return (await lab.echo({ message: "hello " + who })).message;`,
  destructive: false,
  tests: [],
  createdAt: AT,
  updatedAt: AT,
};

/** Starts it; `url` is the endpoint the suite is pointed at. */
export async function startCodeModeForConformance(): Promise<{ url: string; close(): Promise<void> }> {
  const demo = await startDemoHost();
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-conformance-"));
  for (const file of skillsToFolder([GREET])) {
    mkdirSync(path.dirname(path.join(dir, "skills", file.path)), { recursive: true });
    writeFileSync(path.join(dir, "skills", file.path), file.text);
  }
  writeFileSync(
    path.join(dir, "mcp.json"),
    JSON.stringify({ mcpServers: { lab: { type: "http", url: demo.urlFor("lab") } }, codeMode: { skills: "./skills" } }),
  );
  const opened = await openCodeModeServer(await readCodeModeConfig(path.join(dir, "mcp.json")), { baseUrl: demo.url });
  const endpoint = new CodeModeHttpEndpoint({ token: TOKEN, newServer: () => createCodeModeMcpServer(opened.service) });
  const host = await startLoopbackServer((request) => endpoint.handle(request));
  const proxy = await startBearerProxy(host.url, TOKEN);
  return {
    url: `${proxy.url}/mcp`,
    async close() {
      await proxy.close();
      await host.close();
      endpoint.close();
      await opened.close();
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
