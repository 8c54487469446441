/**
 * A person's real set of servers in one page: eight stdio reference servers and four Streamable
 * HTTP ones (one without CORS, through the proxy) beside the demo servers. Before the page's
 * channel (docs/ARCHITECTURE.md, "The channel"), this many long-lived streams held all six of
 * the browser's connections to the app: parallel calls ran one after another, an elicitation's
 * answer waited behind the call that asked for it, and the page hung.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { startEverythingHttp, type EverythingHttp } from "../fixtures/mcp/everything";
import { eightStdioServers, startNoCorsRelay } from "../fixtures/mcp/reference-servers";

const STDIO = eightStdioServers();
const HTTP_NAMES = ["web1", "web2", "web3", "nocors"];
let everything: EverythingHttp[] = [];
let relay: Awaited<ReturnType<typeof startNoCorsRelay>> | undefined;
let httpUrls: Record<string, string> = {};

test.beforeAll(async () => {
  everything = await Promise.all([0, 1, 2, 3].map(() => startEverythingHttp()));
  relay = await startNoCorsRelay(everything[3]!.url);
  httpUrls = { web1: everything[0]!.url, web2: everything[1]!.url, web3: everything[2]!.url, nocors: relay.url };
});
test.afterAll(async () => {
  await relay?.close();
  await Promise.all(everything.map((server) => server.close()));
});

/** Imports the mcp.json of twelve servers as a person does, starts the stdio ones, and waits for all to connect. */
async function openWithManyServers(page: Page): Promise<{ playground: PlaygroundPage; servers: ServersPanel }> {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
  await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
  await servers.openServersTab();
  await servers.root
    .getByRole("button", { name: /Import/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Import and export servers" });
  const mcpServers = { ...STDIO, ...Object.fromEntries(HTTP_NAMES.map((name) => [name, { type: "http", url: httpUrls[name] }])) };
  await dialog.getByRole("textbox", { name: "Config to import" }).fill(JSON.stringify({ mcpServers }));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  for (const name of Object.keys(STDIO)) await dialog.getByRole("button", { name: `Start ${name}` }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await servers.expectConnected(...Object.keys(STDIO), ...HTTP_NAMES, "lab");
  return { playground, servers };
}

const PARALLEL_PROGRAM = `const t0 = Date.now();
const long = (ns) => ns.trigger_long_running_operation({ duration: 2, steps: 2 });
const results = await Promise.all([ev1, ev2, ev3, web1, web2, web3, nocors].map(long).concat([lab.sleep({ ms: 2000 })]));
return { calls: results.length, ms: Date.now() - t0 };`;

test.describe("many servers in one page", () => {
  test.describe.configure({ timeout: 180_000 });

  test("twelve reference servers connect; eight 2-second calls over them and a demo server end together; the page stays answerable meanwhile", async ({
    page,
  }) => {
    const { playground } = await openWithManyServers(page);
    // After a reload the CORS servers go direct and the one without CORS through the proxy.
    await page.reload();
    await new ServersPanel(page).expectConnected(...Object.keys(STDIO), ...HTTP_NAMES);
    await playground.setCode(PARALLEL_PROGRAM);
    await playground.runWithShortcut();
    // While eight streams are open, the app still answers a plain request at once.
    const icon = await page.evaluate(async () => {
      const start = performance.now();
      const response = await fetch("/icon.svg", { cache: "no-store" });
      await response.text();
      return { status: response.status, ms: performance.now() - start };
    });
    expect(icon.status).toBe(200);
    expect(icon.ms).toBeLessThan(1_000);
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const value = (await playground.valueJson()) as { calls: number; ms: number };
    expect(value.calls).toBe(8);
    // In parallel: one call's 2 s and some overhead, not 4 s or more of calls queued behind each other.
    expect(value.ms).toBeLessThanOrEqual(3_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/many-servers-1440.png" });
  });

  test("an elicitation and a sampling request in the middle of calls over busy servers are answered, and the calls complete; Stop during a long call, then a demo call answers at once", async ({
    page,
  }) => {
    const { playground } = await openWithManyServers(page);
    await playground.setCode(`const busy = [ev2, web1, web2, web3, nocors].map((ns) => ns.trigger_long_running_operation({ duration: 4, steps: 4 }));
const asked = await ev1.trigger_elicitation_request({});
const sampled = await web1.trigger_sampling_request({ prompt: "Say hi", maxTokens: 20 });
await Promise.all(busy);
return { asked, sampled };`);
    await playground.runWithShortcut();
    const input = page.getByRole("dialog", { name: "ev1 asks for input" });
    await input
      .getByRole("textbox", { name: /^String/ })
      .first()
      .fill("Ada Lovelace");
    await input.getByRole("button", { name: "Accept" }).click();
    const sampling = page.getByRole("dialog", { name: "web1 asks the model" });
    await sampling.getByRole("button", { name: "Ask the demo model" }).click();
    await sampling.getByRole("button", { name: "Send to the server" }).click();
    await expect(playground.status).toHaveText("ok", { timeout: 30_000 });
    const value = JSON.stringify(await playground.valueJson());
    expect(value).toContain("Ada Lovelace");
    expect(value).toContain("Demo model");

    await playground.setCode(`return await Promise.all([ev1, ev2, web1, nocors].map((ns) => ns.trigger_long_running_operation({ duration: 30, steps: 3 })));`);
    await playground.runWithShortcut();
    await expect(playground.stopButton).toBeEnabled();
    await page.waitForTimeout(500);
    await playground.stopButton.click();
    await expect(playground.status).toHaveText("cancelled");
    await playground.setCode(`const t0 = Date.now(); await lab.echo({ message: "after stop" }); return Date.now() - t0;`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBeLessThan(1_000);
    // A reload is ready again within seconds, every server connected.
    await page.reload();
    await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready", { timeout: 10_000 });
    await new ServersPanel(page).expectConnected(...Object.keys(STDIO), ...HTTP_NAMES);
  });
});
