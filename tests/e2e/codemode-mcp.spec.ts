/**
 * The app's code-mode MCP endpoint (/api/codemode/mcp) in the production build: the official
 * MCP conformance suite's server scenarios that apply to a tools-only server, an SDK client
 * whose program runs live in the playground's run history, and refusals through plain HTTP.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { startBearerProxy } from "../fixtures/bearer-proxy";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { TimelinePanel } from "./pages/timeline-panel";

const run = promisify(execFile);

/** POSTs with exactly these headers (Host included), over plain HTTP; resolves with the status. */
function rawStatus(path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: Number(process.env.E2E_PORT), path, method: "POST", headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end(body);
  });
}
const TOKEN = process.env.E2E_CODEMODE_TOKEN ?? "";
const APP = `http://127.0.0.1:${process.env.E2E_PORT}`;
const ENDPOINT = `${APP}/api/codemode/mcp`;

const SCENARIOS = ["server-initialize", "ping", "tools-list", "tools-call-error", "logging-set-level", "dns-rebinding-protection"];

test.describe("code-mode MCP endpoint", () => {
  test("passes the official conformance scenarios for a tools-only server", async () => {
    test.setTimeout(180_000);
    // The conformance runner sends no Authorization header; the proxy adds the operator's token, as an agent's config would.
    const proxy = await startBearerProxy(APP, TOKEN);
    try {
      for (const scenario of SCENARIOS) {
        const { stdout } = await run(
          process.execPath,
          ["node_modules/@modelcontextprotocol/conformance/dist/index.js", "server", "--url", `${proxy.url}/api/codemode/mcp`, "--scenario", scenario],
          { timeout: 60_000 },
        ).catch((error: { stdout?: string; stderr?: string }) => {
          throw new Error(`conformance ${scenario} failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
        });
        const [, passed, total] = /Passed:\s*(\d+)\/(\d+), 0 failed/.exec(stdout) ?? [];
        expect(Number(total), `${scenario}: checks run\n${stdout}`).toBeGreaterThan(0);
        expect(passed, `${scenario}: every check passed\n${stdout}`).toBe(total);
      }
    } finally {
      await proxy.close();
    }
  });

  test("plain HTTP without the token, or with a rebound Host, is refused", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const bare = await fetch(ENDPOINT, { method: "POST", headers, body: JSON.stringify(init) });
    expect(bare.status).toBe(401);
    const forged = await fetch(ENDPOINT, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer not-the-token-at-all-0123456789abcdef" },
      body: JSON.stringify(init),
    });
    expect(forged.status).toBe(401);
    // The run feed needs the terminal's local token, not the endpoint's.
    const feed = await fetch(`${APP}/api/codemode/runs`, { headers: { "x-cmp-local-token": TOKEN } });
    expect(feed.status).toBe(403);
    // Pushing a run needs the terminal's token too, and a real run record.
    const forgedPush = await fetch(`${APP}/api/codemode/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ record: {}, done: true }),
    });
    expect(forgedPush.status).toBe(403);
    const local = { "content-type": "application/json", "x-cmp-local-token": process.env.E2E_LOCAL_TOKEN ?? "" };
    const junk = await fetch(`${APP}/api/codemode/runs`, {
      method: "POST",
      headers: local,
      body: JSON.stringify({ record: { id: "<img src=x>" }, done: true }),
    });
    expect(junk.status).toBe(400);
    // fetch would replace a forged Host; a raw request sends it as an attacker's page would after DNS rebinding.
    expect(await rawStatus("/api/codemode/runs", { ...local, host: "evil.example.com" }, "{}")).toBe(403);
  });

  test("an agent's program streams into the playground's run history, and opens with its waterfall", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await timeline.openView("Runs");
    await expect(page.getByText("Agent runs from /api/codemode/mcp appear here live")).toBeVisible();

    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(ENDPOINT), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const program = `const [a, b] = await Promise.all([lab.echo({ message: "one" }), lab.sleep({ ms: 1500 })]);
const graph = await memory.read_graph({});
return { echo: a.message, slept: b.sleptMs, entities: graph.entities.length };`;
      const pending = client.callTool({ name: "execute_code", arguments: { code: program } }) as Promise<CallToolResult>;
      // While the program sleeps, its run is already listed, unfinished.
      const row = timeline.runs.getByRole("row").filter({ hasText: "e2e-agent · execute_code" });
      await expect(row).toContainText("unfinished");
      const result = await pending;
      expect(result.structuredContent).toMatchObject({ value: { echo: "one", slept: 1500, entities: 0 } });
      await expect(row).toContainText("ok");
      await expect(row.getByRole("cell").nth(4)).toHaveText("3");
      await page.screenshot({ path: "test-results/codemode-agent-runs.png" });
      await row.getByRole("button", { name: /^View / }).click();
      await expect(timeline.rows).toHaveCount(3);
      await expect(timeline.rows.first()).toContainText("lab.echo");
      // It opens in the editor like any run.
      await page.getByRole("button", { name: "Open its code in the editor" }).click();
      await expect(new PlaygroundPage(page).code).toContainText("memory.read_graph");
    } finally {
      await client.close();
    }
  });

  test("a stdio code-mode server started with --playground shows its runs in the page too", async ({ page }) => {
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await timeline.openView("Runs");
    const client = new Client({ name: "stdio-agent", version: "1.0.0" });
    const link = `${APP}/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`;
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["bin/code-mode-playground.mjs", "mcp", "--config", process.env.E2E_CODEMODE_CONFIG ?? "", "--playground", link],
      }),
    );
    try {
      const result = (await client.callTool({
        name: "execute_code",
        arguments: { code: `return (await lab.echo({ message: "from stdio" })).message;` },
      })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ value: "from stdio" });
      const row = timeline.runs.getByRole("row").filter({ hasText: "stdio-agent · execute_code" });
      await expect(row).toContainText("ok");
      await expect(row.getByRole("cell").nth(4)).toHaveText("1");
    } finally {
      await client.close();
    }
  });
});
