/**
 * A person's real set of servers in one page: eight stdio reference servers and four Streamable
 * HTTP ones (one without CORS, through the proxy) beside the demo servers. Before the page's
 * channel (docs/channel.md, "The channel"), this many long-lived streams held all six of
 * the browser's connections to the app: parallel calls ran one after another, an elicitation's
 * answer waited behind the call that asked for it, and the page hung.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { saveRunAsSkill, skillsTab } from "./pages/skills-tab";
import { startEverythingHttp, type EverythingHttp } from "../fixtures/mcp/everything";
import { freePort } from "../fixtures/free-port";
import { startAppServer } from "../fixtures/app-server";
import { EV3_MARKER, eightStdioServers, startNoCorsRelay } from "../fixtures/mcp/reference-servers";

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

/** Imports an mcp.json as a person does (ServersPanel.importConfig). */
function importConfig(page: Page, mcpServers: Record<string, unknown>): Promise<void> {
  return new ServersPanel(page).importConfig(mcpServers);
}

/** Imports the mcp.json of twelve servers, starts the stdio ones, and waits for all to connect. */
async function openWithManyServers(page: Page): Promise<{ playground: PlaygroundPage; servers: ServersPanel }> {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
  await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
  await importConfig(page, { ...STDIO, ...Object.fromEntries(HTTP_NAMES.map((name) => [name, { type: "http", url: httpUrls[name] }])) });
  await servers.expectConnected(...Object.keys(STDIO), ...HTTP_NAMES, "lab");
  return { playground, servers };
}

const PARALLEL_PROGRAM = `const t0 = Date.now();
const long = (ns) => ns.trigger_long_running_operation({ duration: 2, steps: 2 });
const results = await Promise.all([ev1, ev2, ev3, web1, web2, web3, nocors].map(long).concat([lab.sleep({ ms: 2000 })]));
return { calls: results.length, ms: Date.now() - t0 };`;

/** A program that reads its input (`prefix`) and calls every everything server, stdio and HTTP, plus both memory servers, at once. */
const FAN_OUT = `const everything = [ev1, ev2, ev3, web1, web2, web3, nocors];
const [echoes, graphs] = await Promise.all([
  Promise.all(everything.map((ns, i) => ns.trigger_long_running_operation({ duration: 2, steps: 1 }).then(() => ns.echo({ message: prefix + i })))),
  Promise.all([mem1, mem2].map((ns) => ns.read_graph({}))),
]);
return { echoes, graphs: graphs.length };`;

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

    // Eight calls to one server the page reaches directly (CORS): two go straight to it, the
    // rest through the proxy on the channel, so they too end together instead of five at a time.
    await expect(page.getByRole("listitem", { name: "Server web1" })).not.toContainText("via proxy");
    await playground.setCode(`const t0 = Date.now();
await Promise.all(Array.from({ length: 8 }, () => web1.trigger_long_running_operation({ duration: 2, steps: 2 })));
return Date.now() - t0;`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    expect(await playground.valueJson()).toBeLessThanOrEqual(3_000);
  });

  test("a skill over twelve servers: saved from a run, called from a program with its sixteen calls nested and in parallel, its test replayed offline", async ({
    page,
  }) => {
    const { playground } = await openWithManyServers(page);
    await playground.setCode(FAN_OUT);
    await playground.editor.getByRole("button", { name: /^Inputs/ }).click();
    await playground.editor.getByRole("textbox", { name: "Inputs JSON" }).fill('{ "prefix": "hi " }');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    await saveRunAsSkill(page, "fan_out", "Echoes prefix through every everything server and counts the memory graphs.");

    await playground.setCode(`const t0 = Date.now();
const value = await skills.fan_out({ prefix: "yo " });
return { ...value, ms: Date.now() - t0 };`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const value = (await playground.valueJson()) as { echoes: unknown[]; graphs: number; ms: number };
    expect(value.graphs).toBe(2);
    expect(JSON.stringify(value.echoes)).toContain("yo 6");
    expect(value.echoes).toHaveLength(7);
    // Seven 2-second calls inside the skill end together, not one after another.
    expect(value.ms).toBeLessThanOrEqual(3_500);
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await expect(timeline.output.getByRole("button", { name: /^skills\.fan_out, call 1, ok/ })).toBeVisible();
    // The skill's call and its sixteen (the waterfall draws the rows in view).
    await expect(timeline.list).toHaveAccessibleName("Tool calls, 17 of 17");
    await expect(timeline.output.getByRole("button", { name: /^ev1\.echo, inside call 1, ok/ })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/many-servers-skill-1440.png" });

    // The run it was saved from is its test; replayed offline, it passes with no server called.
    const skills = skillsTab(page);
    await skills.open();
    await skills.skill("fan_out").click();
    await skills.root.getByRole("button", { name: "Test skill" }).click();
    await expect(skills.root.getByText("tests pass")).toBeVisible();
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

  test("four tabs with these servers each run a parallel program at the same time", async ({ page, context }) => {
    await openWithManyServers(page);
    const others = await Promise.all([1, 2, 3].map(() => context.newPage()));
    const pages = [page, ...others];
    for (const other of others) {
      await other.goto("/");
      await expect(other.getByTestId("sandbox-state")).toHaveText("sandbox ready");
      await new ServersPanel(other).expectConnected(...Object.keys(STDIO), ...HTTP_NAMES, "lab");
    }
    const playgrounds = pages.map((p) => new PlaygroundPage(p));
    for (const playground of playgrounds) await playground.setCode(PARALLEL_PROGRAM);
    await Promise.all(playgrounds.map((playground) => playground.runWithShortcut()));
    for (const playground of playgrounds) {
      await expect(playground.status).toHaveText("ok", { timeout: 30_000 });
      const value = (await playground.valueJson()) as { calls: number; ms: number };
      expect(value.calls).toBe(8);
      // Not one round after another: calls queued behind each other end at 4 s, 6 s…
      expect(value.ms).toBeLessThan(4_000);
    }
  });

  test("fifty servers connected at once in one page, every one answering in one program", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await openWithManyServers(page);
    const aliases = Array.from({ length: 34 }, (_, i) => `lab${String(i + 1).padStart(2, "0")}`);
    const origin = new URL(page.url()).origin;
    await importConfig(page, Object.fromEntries(aliases.map((name) => [name, { type: "http", url: `${origin}/api/demo-mcp/lab` }])));
    const servers = new ServersPanel(page);
    await servers.expectConnected(...aliases);
    // 8 stdio + 4 HTTP + 34 aliases + the 4 demo servers.
    await expect(servers.root.getByRole("listitem", { name: /^Server / })).toHaveCount(50);
    await playground.setCode(`const names = [${aliases.join(", ")}];
const echoes = await Promise.all(names.map((ns, i) => ns.echo({ message: "hi " + i })));
const graphs = await Promise.all([mem1, mem2].map((ns) => ns.read_graph({})));
return { echoes: echoes.length, graphs: graphs.length };`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 30_000 });
    expect(await playground.valueJson()).toEqual({ echoes: 34, graphs: 2 });
  });

  test("a stdio server killed mid-call fails that call clearly and leaves the others alone; a flooding server does not hold up another's answer", async ({
    page,
  }) => {
    const { playground } = await openWithManyServers(page);
    await playground.setCode(`const [killed, other] = await Promise.allSettled([
  ev3.trigger_long_running_operation({ duration: 20, steps: 4 }),
  ev1.trigger_long_running_operation({ duration: 3, steps: 3 }),
]);
return { killed: killed.status, reason: killed.status === "rejected" ? killed.reason.message : "", other: other.status };`);
    await playground.runWithShortcut();
    await page.waitForTimeout(1_000);
    // The newest process with ev3's marker is this page's.
    execFileSync("pkill", ["-KILL", "-n", "-f", EV3_MARKER]);
    await expect(playground.status).toHaveText("ok", { timeout: 15_000 });
    const value = (await playground.valueJson()) as { killed: string; reason: string; other: string };
    expect(value).toMatchObject({ killed: "rejected", other: "fulfilled" });
    expect(value.reason).toMatch(/exited|killed|signal|closed/i);
    await playground.setCode(`return await lab.echo({ message: "still here" });`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    // The dead server is started again by itself, in a new process, and its calls work again.
    const servers = new ServersPanel(page);
    await expect(servers.status("ev3")).toHaveText(/restarting|connected/);
    await servers.expectConnected("ev3");
    await playground.setCode(`return await ev3.echo({ message: "back" });`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");

    await importConfig(page, { flood: { command: process.execPath, args: ["--import", "tsx", path.resolve("tests/fixtures/mcp/flood-server.ts")] } });
    await new ServersPanel(page).expectConnected("flood");
    await playground.setCode(`let floodDone = false;
const flooding = flood.flood({ mb: 40 }).then((r) => { floodDone = true; return r; });
await new Promise((resolve) => setTimeout(resolve, 50));
const echoes = await Promise.all([lab.echo({ message: "a" }), ev1.echo({ message: "b" }), web1.echo({ message: "c" })]);
const answeredDuringFlood = !floodDone;
const flooded = await flooding;
return { answeredDuringFlood, echoes: echoes.length, messages: flooded.messages };`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 60_000 });
    expect(await playground.valueJson()).toMatchObject({ answeredDuringFlood: true, echoes: 3 });
  });

  test("a server set to one call in flight keeps all 200 server-memory writes made under Promise.all; the timeline shows calls queued", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    await importConfig(page, { mem: STDIO.mem2 });
    await servers.expectConnected("mem");
    const card = page.getByRole("listitem", { name: "Server mem" });
    await card.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit mem" });
    await form.getByLabel("Calls in flight at once (empty: no limit)").fill("0");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("alert")).toContainText("a whole number from 1");
    await form.getByLabel("Calls in flight at once (empty: no limit)").fill("1");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toHaveCount(0);
    await playground.setCode(`const tag = "cap-" + Date.now() + "-";
await Promise.all(Array.from({ length: 200 }, (_, i) =>
  mem.create_entities({ entities: [{ name: tag + i, entityType: "t", observations: [] }] })));
return (await mem.read_graph({})).entities.filter((e) => e.name.startsWith(tag)).length;`);
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 60_000 });
    expect(await playground.valueJson()).toBe(200);
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await expect(timeline.rows.filter({ hasText: /queued \d+ ms/ }).first()).toBeVisible();
    await timeline.rows
      .filter({ hasText: /queued \d+ ms/ })
      .nth(5)
      .getByRole("button")
      .first()
      .click();
    await expect(page.getByTestId("call-cap-wait")).toContainText(/Waited \d+ ms for mem's cap of 1 call in flight/);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/cap-queued-1440.png" });
    // The setting survives a reload.
    await page.reload();
    await servers.expectConnected("mem");
    await page.getByRole("listitem", { name: "Server mem" }).getByRole("button", { name: "Edit" }).click();
    await expect(page.getByRole("form", { name: "Edit mem" }).getByLabel("Calls in flight at once (empty: no limit)")).toHaveValue("1");
  });

  test("the app stopped and started mid-run: the page says so, reconnects by itself, and the next run works", async ({ page }) => {
    const port = await freePort();
    const start = () => startAppServer({ port, env: { CMP_LOCAL_TOKEN: process.env.E2E_LOCAL_TOKEN } });
    let app = await start();
    try {
      const playground = new PlaygroundPage(page);
      await page.goto(`http://127.0.0.1:${port}/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
      await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
      await importConfig(page, { mem: STDIO.mem1 });
      await new ServersPanel(page).expectConnected("lab", "mem");
      await playground.setCode(`return await lab.sleep({ ms: 10000 });`);
      await playground.runWithShortcut();
      await page.waitForTimeout(500);
      await app.stop();
      const banner = page.getByRole("alert").filter({ hasText: "Disconnected from the app" });
      await expect(banner).toBeVisible();
      await expect(banner).toContainText(/Trying again in \d+ s|Reconnecting/);
      // The call in flight fails at once with words, not a hang until its timeout.
      await expect(playground.status).toHaveText("tool", { timeout: 5_000 });
      await expect(playground.error).toContainText("connection to the app was lost");
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.screenshot({ path: "test-results/channel-down-1280.png" });
      app = await start();
      await expect(banner).toHaveCount(0, { timeout: 15_000 });
      // The servers it lost connect again by themselves; the stdio one in a new process.
      await new ServersPanel(page).expectConnected("lab", "mem");
      await playground.setCode(`return [await lab.echo({ message: "back" }), await mem.read_graph({})];`);
      await playground.runWithShortcut();
      await expect(playground.status).toHaveText("ok");
    } finally {
      await app.stop();
    }
  });
});
