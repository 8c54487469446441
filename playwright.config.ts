import { defineConfig } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./tests/fixtures/free-port";
import { chromiumPath, CHROMIUM_ARGS } from "./tests/e2e/chromium";

// Free loopback ports for the whole run. Workers re-read this file, so the ports chosen by the
// runner are handed to them through the environment.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_EVERYTHING_PORT ??= String(await freePort());
process.env.E2E_MODEL_PORT ??= String(await freePort());
// The stdio bridge's token, as `npm start` would print it; tests open `/#cmp-token=<this>`.
process.env.E2E_LOCAL_TOKEN ??= `e2e-${randomBytes(24).toString("base64url")}`;
// The code-mode MCP endpoint (/api/codemode/mcp) serves the lab and store demo servers of this
// very app and the reference memory server over stdio; agents authenticate with this token.
process.env.E2E_CODEMODE_TOKEN ??= `e2e-codemode-${randomBytes(24).toString("base64url")}`;
process.env.E2E_CODEMODE_CONFIG ??= writeCodeModeConfig(Number(process.env.E2E_PORT));
const port = Number(process.env.E2E_PORT);
const everythingPort = Number(process.env.E2E_EVERYTHING_PORT);
const modelPort = Number(process.env.E2E_MODEL_PORT);
const baseURL = `http://127.0.0.1:${port}`;

function writeCodeModeConfig(appPort: number): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@modelcontextprotocol/server-memory/package.json");
  const memory = path.join(path.dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-e2e-codemode-"));
  const file = path.join(dir, "mcp.json");
  const demo = (name: string) => ({ type: "http", url: `http://127.0.0.1:${appPort}/api/demo-mcp/${name}` });
  const mcpServers = {
    lab: demo("lab"),
    store: demo("store"),
    memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") } },
  };
  writeFileSync(file, JSON.stringify({ mcpServers, codeMode: { destructive: { store: "refuse" } } }));
  return file;
}

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two cores: one browser at a time keeps timings honest and the machine responsive.
  workers: 1,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
  },
  webServer: [
    {
      // Always the production build, never `next dev`; served the way `npm start` serves it.
      command: `npm run build && node scripts/serve.mjs --host 127.0.0.1 --port ${port}`,
      url: baseURL,
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      // Local mode: the proxy reaches the loopback MCP servers below with no allow-list.
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        CMP_LOCAL_TOKEN: process.env.E2E_LOCAL_TOKEN,
        CMP_CODEMODE_CONFIG: process.env.E2E_CODEMODE_CONFIG,
        CMP_CODEMODE_TOKEN: process.env.E2E_CODEMODE_TOKEN,
        // The many-servers tests run four tabs of eight stdio servers each, while the servers of
        // the test before are still in their grace after its page closed (stdio-sessions.ts).
        CMP_STDIO_MAX_SESSIONS: "96",
      },
    },
    {
      // A real third-party MCP server (Streamable HTTP, permissive CORS) for "add a server by URL".
      command: `node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp`,
      port: everythingPort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "ignore",
      env: { PORT: String(everythingPort) },
    },
    {
      // A scripted OpenAI-compatible model (tests/fixtures/model/e2e-model-scripts.ts) for the chat's real-provider path.
      command: "npx tsx tests/fixtures/model/scripted-server-cli.ts",
      url: `http://127.0.0.1:${modelPort}/`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { PORT: String(modelPort) },
    },
  ],
});
