/**
 * A person's local servers across tabs (docs/mcp-client.md, "The MCP client"): nine stdio
 * reference servers in four tabs run as nine processes, shared by the tabs; a reload takes its
 * processes over at once; Reconnect restarts a server for every tab; a tab over the cap says so
 * and starts its server by itself once a slot frees. Its own app with a cap of nine, so the cap
 * is met with nine servers.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ServersPanel } from "./pages/servers-panel";
import { PlaygroundPage } from "./pages/playground-page";
import { startAppServer, type AppServer } from "../fixtures/app-server";
import { EVERYTHING_BIN } from "../fixtures/mcp/everything";
import { eightStdioServers } from "../fixtures/mcp/reference-servers";

const MARK = `tabs-${Date.now()}`;

/** The pids of this test's servers, found by the mark in their environment. */
function marked(): string[] {
  return readdirSync("/proc").filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(`CMP_E2E_MARK=${MARK}`);
    } catch {
      return false;
    }
  });
}

/** The pid of this test's server whose command line holds `arg`. */
function pidWith(arg: string): string | undefined {
  return marked().find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").includes(arg);
    } catch {
      return false;
    }
  });
}

/** Eight reference servers and a ninth everything server, each marked. */
function nineServers(): Record<string, { command: string; args: string[]; env: Record<string, string> }> {
  const eight = eightStdioServers();
  const all = { ...eight, ev4: { command: process.execPath, args: [EVERYTHING_BIN, "stdio", "fourth"] } };
  return Object.fromEntries(
    Object.entries(all).map(([name, entry]) => [
      name,
      { command: entry.command, args: entry.args, env: { ...(entry as { env?: Record<string, string> }).env, CMP_E2E_MARK: MARK } },
    ]),
  );
}

async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
  return page;
}

test.describe("local servers across tabs", () => {
  test.describe.configure({ timeout: 240_000 });
  let app: AppServer | undefined;
  test.afterAll(async () => {
    await app?.stop();
  });

  test("nine stdio servers in four tabs run as nine processes; a reload takes its servers over at once; a tab over the cap starts its server by itself once a slot frees", async ({
    browser,
  }) => {
    app = await startAppServer({ env: { CMP_STDIO_MAX_SESSIONS: "9" } });
    const servers = nineServers();
    const names = Object.keys(servers);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const first = await openTab(context, app.printed);
    await new ServersPanel(first).importConfig(servers);
    await new ServersPanel(first).expectConnected(...names);
    const tabs = [first];
    for (let i = 0; i < 3; i++) {
      const tab = await openTab(context, `${app.origin}/`);
      await new ServersPanel(tab).expectConnected(...names);
      tabs.push(tab);
    }
    // Four tabs of nine servers: nine processes, shared, at a cap of nine; each card says so.
    await expect.poll(() => marked().length, { timeout: 10_000 }).toBe(9);
    await expect(first.getByTestId(`server-process-${names[0]}`)).toHaveText(/^ · pid \d+$/);
    await expect(tabs[3]!.getByTestId(`server-process-${names[0]}`)).toHaveText(/^ · pid \d+, already running in another tab$/);
    const before = marked().sort();
    // Each tab's calls are its own (the server sees one client). The code goes in one tab at a
    // time (setCode pastes through the context's one clipboard); the runs go at once.
    const playgrounds = tabs.map((tab) => new PlaygroundPage(tab));
    for (const [i, playground] of playgrounds.entries()) {
      await playground.setCode(`return await Promise.all([ev1, ev2, ev3, ev4].map((ns) => ns.echo({ message: "tab ${i}" })));`);
    }
    await Promise.all(playgrounds.map((playground) => playground.runWithShortcut()));
    for (const [i, playground] of playgrounds.entries()) {
      await expect(playground.status).toHaveText("ok", { timeout: 30_000 });
      expect(await playground.valueJson()).toEqual(Array(4).fill(`Echo: tab ${i}`));
    }

    // A reload: every server connected again within 10 s, on the same processes.
    const reloaded = tabs[2]!;
    const started = Date.now();
    await reloaded.reload();
    await expect(reloaded.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    for (const name of names) await expect(new ServersPanel(reloaded).status(name)).toHaveText("connected", { timeout: 10_000 });
    console.log(`reload: nine servers connected again in ${Date.now() - started} ms`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(marked().sort()).toEqual(before);

    // The person's Reconnect on one card restarts that server's process for every tab, within the
    // cap: the other tabs connect again to the new one by themselves.
    const fourth = pidWith("fourth");
    await first.getByRole("listitem", { name: "Server ev4" }).getByRole("button", { name: "Reconnect" }).click();
    await expect
      .poll(
        () => {
          const now = pidWith("fourth");
          return now !== undefined && now !== fourth;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    for (const tab of tabs) await expect(new ServersPanel(tab).status("ev4")).toHaveText("connected", { timeout: 20_000 });
    expect(marked()).toHaveLength(9);

    // Another browser profile (its own servers list) adds a tenth: over the cap, the card says so and waits.
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const fifth = await openTab(other, app.printed);
    const tenth = { command: process.execPath, args: [EVERYTHING_BIN, "stdio", "tenth"], env: { CMP_E2E_MARK: MARK } };
    await new ServersPanel(fifth).importConfig({ ev10: tenth });
    const card = fifth.getByRole("listitem", { name: "Server ev10" });
    await expect(card).toContainText("At most 9 local stdio servers may run at once", { timeout: 10_000 });
    await expect(card.getByTestId("server-restart")).toContainText(/Starting it again in \d+ s \(try \d+ of \d+\)/);
    await fifth.screenshot({ path: "test-results/tabs-over-cap-1440.png" });
    // The first profile's tabs close: their processes stop after the linger, and the tenth starts by itself.
    await context.close();
    await expect(new ServersPanel(fifth).status("ev10")).toHaveText("connected", { timeout: 90_000 });
    await expect.poll(() => marked().length, { timeout: 20_000 }).toBe(1);
    await other.close();
  });
});
