import { defineConfig } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { freePort } from "./tests/fixtures/free-port";
import { chromiumPath, CHROMIUM_ARGS } from "./tests/e2e/chromium";

// Free loopback ports for the whole run. Workers re-read this file, so the ports chosen by the
// runner are handed to them through the environment.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_EVERYTHING_PORT ??= String(await freePort());
process.env.E2E_MODEL_PORT ??= String(await freePort());
// The stdio bridge's token, as `npm start` would print it; tests open `/#cmp-token=<this>`.
process.env.E2E_LOCAL_TOKEN ??= `e2e-${randomBytes(24).toString("base64url")}`;
const port = Number(process.env.E2E_PORT);
const everythingPort = Number(process.env.E2E_EVERYTHING_PORT);
const modelPort = Number(process.env.E2E_MODEL_PORT);
const baseURL = `http://127.0.0.1:${port}`;

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
      env: { NEXT_TELEMETRY_DISABLED: "1", CMP_LOCAL_TOKEN: process.env.E2E_LOCAL_TOKEN },
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
