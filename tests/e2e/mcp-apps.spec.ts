import { expect, test, type Page } from "./fixtures";
import type { FrameLocator, Locator } from "@playwright/test";
import type { McpServer } from "@modelcontextprotocol/server";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { counterServerFactory, hostileServerFactory } from "../fixtures/mcp/app-servers";
import { startMcpHttpServer, type StatefulHost } from "../fixtures/mcp/test-servers";
import { startAppExample, type AppExample } from "../fixtures/mcp/app-examples";

// MCP Apps in the page (docs/mcp-apps.md, "MCP Apps"): the shipping demo's app, an app
// built on the extension's own App class, and apps that attack their host.
let counter: StatefulHost;
let counterCalls: Map<string, number>;
let hostile: StatefulHost;
let hostileCalls: Map<string, number>;
let basic: AppExample;
let budget: AppExample;

test.beforeAll(async () => {
  const built = await counterServerFactory();
  counterCalls = built.calls;
  counter = await startMcpHttpServer(built.factory);
  // The hostile app may reach its own server (it declares that origin) and nothing else, the
  // playground included (it declares that too): the server's port is known once it listens.
  const late: { factory?: () => McpServer } = {};
  hostile = await startMcpHttpServer(() => late.factory!());
  const attack = await hostileServerFactory({
    playground: `http://127.0.0.1:${process.env.E2E_PORT}`,
    allowed: new URL(hostile.url).origin,
    other: counter.url,
  });
  hostileCalls = attack.calls;
  late.factory = attack.factory;
  [basic, budget] = await Promise.all([
    startAppExample("@modelcontextprotocol/server-basic-vanillajs", "mcp-server-basic-vanillajs"),
    startAppExample("@modelcontextprotocol/server-budget-allocator", "mcp-budget-allocator-server"),
  ]);
});

test.afterAll(async () => {
  await counter.close();
  await hostile.close();
  await Promise.all([basic.close(), budget.close()]);
});

/** Test-calls a tool from the Tools view with these arguments (as JSON). */
async function testCall(page: Page, server: string, tool: string, args: Record<string, unknown>): Promise<Locator> {
  await new ServersPanel(page).openTool(server, tool);
  const form = page.getByRole("form", { name: `Test-call ${tool}` });
  const asJson = form.getByRole("button", { name: "Edit as JSON" });
  if (await asJson.count()) {
    await asJson.click();
    await form.getByRole("textbox", { name: "Arguments JSON" }).fill(JSON.stringify(args));
  }
  await form.getByRole("button", { name: `Call ${tool}` }).click();
  await expect(page.getByTestId("test-call-result")).toBeVisible();
  return page.getByRole("region", { name: `App of ${tool}` });
}

/** The app's own document, inside the sandbox page's frame. */
const appDocument = (within: Page | Locator, tool: string): FrameLocator => within.frameLocator(`iframe[title="App of ${tool}"]`).frameLocator("iframe");

async function openWith(page: Page, name: string, url: string): Promise<void> {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await playground.goto();
  await servers.addServer(name, url);
  await servers.expectConnected(name);
}

test.describe("MCP Apps", () => {
  test("the official MCP App examples (2.x) work as published: both connect, their apps render, and the basic app's own button calls its server through the host", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWith(page, "basic", basic.url);
    const servers = new ServersPanel(page);
    await servers.addServer("budget", budget.url);
    await servers.expectConnected("basic", "budget");

    const view = await testCall(page, "basic", "get-time", {});
    await expect(view.getByTestId("mcp-app-status")).toHaveText("running");
    const app = appDocument(page, "get-time");
    // The tool's result reached the app, then its own button asks the server again, through the host.
    await expect(app.locator("#server-time")).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
    const first = await app.locator("#server-time").textContent();
    await page.waitForTimeout(1_100);
    await app.getByRole("button", { name: "Get Server Time" }).click();
    await expect(app.locator("#server-time")).not.toHaveText(first ?? "");
    await expect(app.locator("#server-time")).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
    await page.screenshot({ path: test.info().outputPath("basic-vanillajs.png") });

    await page.getByRole("button", { name: "Back to tools" }).click();
    const budgetView = await testCall(page, "budget", "get-budget-data", {});
    await expect(budgetView.getByTestId("mcp-app-status")).toHaveText("running");
    const allocator = appDocument(page, "get-budget-data");
    await expect(allocator.getByRole("heading", { name: "Budget Allocator" })).toBeVisible();
    await expect(allocator.locator("#sliders-container input[type=range]").first()).toBeVisible();
    // Once on screen (Chromium does not lay out a frame scrolled out of view), it sizes its frame to its chart and sliders.
    const frame = page.locator('iframe[title="App of get-budget-data"]');
    await frame.scrollIntoViewIfNeeded();
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(400);
    await budgetView.screenshot({ path: test.info().outputPath("budget-allocator.png") });
  });

  test("the shipping demo's app in a test call: it gets the input and result, compares carriers through the host, sizes itself, and closes", async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await new PlaygroundPage(page).goto();
    await new ServersPanel(page).expectConnected("shipping");
    const view = await testCall(page, "shipping", "get_quote", { carrier: "parcelnet", origin: "DE", destination: "US", weightKg: 2.5 });
    await expect(view.getByTestId("mcp-app-status")).toHaveText("running");
    const app = appDocument(page, "get_quote");
    await expect(app.locator(".route")).toHaveText("DE → US · 2.5 kg");
    await expect(app.locator(".price")).toHaveText("34.50 EUR");
    const before = (await page.locator('iframe[title="App of get_quote"]').boundingBox())?.height ?? 0;
    await app.getByRole("button", { name: "Compare carriers" }).click();
    await expect(app.locator(".bar")).toHaveCount(5);
    await expect(app.locator(".bar.current .name")).toHaveText("parcelnet");
    // The app grew with its bars, and the frame followed.
    await expect.poll(async () => (await page.locator('iframe[title="App of get_quote"]').boundingBox())?.height ?? 0).toBeGreaterThan(before + 60);
    await view.getByText(/^App log/).click();
    await expect(view.getByTestId("mcp-app-log")).toContainText("initialized: shipping-quote 1.0.0");
    await expect(view.getByTestId("mcp-app-log")).toContainText('call get_quote {"origin":"DE","destination":"US","weightKg":2.5,"carrier":"postal"}');
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("demo-app-test-call-1440.png") });

    await view.getByRole("button", { name: "Close app" }).click();
    await expect(view.getByTestId("mcp-app-status")).toHaveText("closed");
    await expect(page.locator('iframe[title="App of get_quote"]')).toHaveCount(0);
    await view.getByRole("button", { name: "Show again" }).click();
    await expect(appDocument(page, "get_quote").locator(".price")).toHaveText("34.50 EUR");
  });

  test("an app on the extension's App class: host context, app-only and destructive calls, links, messages, teardown", async ({ page }) => {
    await openWith(page, "counter", counter.url);
    // The app-only tool is listed for the person, marked, and is not in the model's typed API.
    await new ServersPanel(page).openToolsTab();
    await expect(page.getByRole("region", { name: "Tools of counter" }).getByRole("button", { name: /^bump/ })).toContainText("app only");
    const playground = new PlaygroundPage(page);
    await playground.setCode("return [typeof counter.show_counter, typeof counter.bump];");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual(["function", "undefined"]);

    const view = await testCall(page, "counter", "show_counter", { start: 5 });
    const app = appDocument(page, "show_counter");
    await expect(app.locator("#input")).toHaveText('{"start":5}');
    await expect(app.locator("#result")).toHaveText('{"count":5}');
    await expect(app.locator("#host")).toHaveText('{"host":"code-mode-playground","theme":"dark","tools":true}');

    await app.getByRole("button", { name: "Bump" }).click();
    await expect(app.locator("#out")).toHaveText('{"bumped":2}');
    expect(counterCalls.get("bump")).toBe(1);
    // The app's call went through the host functions and is on the timeline as a run of its own.
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await timeline.openView("Runs");
    await expect(timeline.runs).toContainText("counter.bump from its app");

    // A destructive tool waits for the person: denied, then allowed.
    await app.getByRole("button", { name: "Wipe" }).click();
    const ask = view.getByRole("alertdialog", { name: "Call wipe" });
    await expect(ask).toContainText("The app asks: Call wipe");
    await ask.getByRole("button", { name: "Deny" }).click();
    await expect(app.locator("#out")).toHaveText("error: denied by the person");
    expect(counterCalls.get("wipe")).toBeUndefined();
    await app.getByRole("button", { name: "Wipe" }).click();
    await view.getByRole("alertdialog", { name: "Call wipe" }).getByRole("button", { name: "Allow" }).click();
    await expect(app.locator("#out")).toHaveText('{"wiped":true}');
    expect(counterCalls.get("wipe")).toBe(1);

    // A tool whose visibility leaves out apps is refused before it reaches the server.
    await app.getByRole("button", { name: "Hidden" }).click();
    await expect(app.locator("#out")).toContainText("not visible to apps");
    expect(counterCalls.get("model_only")).toBeUndefined();

    // A link opens only if the person says so.
    await app.getByRole("button", { name: "Link" }).click();
    await view.getByRole("alertdialog", { name: "Open a link in a new tab" }).getByRole("button", { name: "Deny" }).click();
    await expect(app.locator("#out")).toHaveText("link refused");

    // A message for the conversation: there is none in a test call, so it is refused and logged.
    await app.getByRole("button", { name: "Message" }).click();
    await expect(app.locator("#out")).toHaveText("message refused");

    // Growing: the frame follows the app's size notifications.
    const frame = page.locator('iframe[title="App of show_counter"]');
    const before = (await frame.boundingBox())?.height ?? 0;
    await app.getByRole("button", { name: "Grow" }).click();
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(before + 300);

    // The app asks to be closed: the host tears it down, and the app's last call still reaches its server.
    await app.getByRole("button", { name: "Close" }).click();
    await expect(view.getByTestId("mcp-app-status")).toHaveText("closed");
    await expect(frame).toHaveCount(0);
    await expect.poll(() => counterCalls.get("goodbye")).toBe(1);
    await view.getByText(/^App log/).click();
    await expect(view.getByTestId("mcp-app-log")).toContainText("refused: a message for the conversation");
    await expect(view.getByTestId("mcp-app-log")).toContainText("the app asked to be closed");
  });

  test("a hostile app reaches nothing of the playground, nothing it did not declare, and cannot forge the host's messages", async ({ page, context }) => {
    await openWith(page, "hostile", hostile.url);
    const address = page.url();
    const view = await testCall(page, "hostile", "attack", {});
    const report = appDocument(page, "attack").locator("#report");
    await expect(report).toContainText('"done":"yes"');
    const outcome = JSON.parse((await report.textContent()) ?? "{}") as Record<string, string>;
    expect(outcome).toMatchObject({
      parentDocument: "blocked",
      topDocument: "blocked",
      topStorage: "blocked",
      ownStorage: "blocked",
      cookie: "blocked",
      indexedDB: "blocked",
      fetchPlayground: "blocked",
      fetchOther: "blocked",
      popup: "blocked",
      // What it declared, and only that, it may reach.
      fetchDeclared: "GOT reached",
    });
    // The top window stayed where it was; no tab opened; the forged call and link went nowhere.
    await page.waitForTimeout(500);
    expect(page.url()).toBe(address);
    expect(context.pages()).toHaveLength(1);
    expect(hostileCalls.get("wipe")).toBeUndefined();
    await expect(view.getByRole("alertdialog")).toHaveCount(0);
  });

  test("an app that floods the host is cut off, and the page keeps working", async ({ page }) => {
    await openWith(page, "hostile", hostile.url);
    const view = await testCall(page, "hostile", "flood", {});
    await expect(view.getByTestId("mcp-app-status")).toHaveText("cut off");
    await expect(page.locator('iframe[title="App of flood"]')).toHaveCount(0);
    await view.getByText(/^App log/).click();
    await expect(view.getByTestId("mcp-app-log")).toContainText("messages in one second, so it was stopped");
    const playground = new PlaygroundPage(page);
    await playground.setCode("return 6 * 7;");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe(42);
  });

  test("apps of a chat's program: its card lists the calls with an app, the timeline's call details open one too", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping", "news", "store", "lab");
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();
    const waiting = page.getByRole("alert", { name: "Model code waiting" });
    await waiting.getByRole("button", { name: "Run" }).click({ timeout: 20_000 });
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });

    // The program quoted every carrier: its card lists those calls, each with its app.
    const apps = chat.getByTestId("chat-apps");
    await expect(apps).toContainText("5 calls with an MCP App");
    await apps.locator("summary").click();
    await expect(apps.getByText(/^shipping\.get_quote \(call #\d+\)$/)).toHaveCount(5);
    await apps.getByRole("button", { name: "Show app" }).first().click();
    const inChat = appDocument(page, "get_quote");
    await expect(inChat.locator(".route")).toContainText("DE → US · 2 kg");
    await expect(inChat.locator(".price")).toHaveText(/^\d+\.\d\d (EUR|USD|GBP)$/);
    // In the chat, the app may ask the model: the message waits for the person, then is sent.
    await inChat.getByRole("button", { name: "Compare carriers" }).click();
    await inChat.getByRole("button", { name: "Ask the model about these prices" }).click();
    const appView = chat.getByRole("region", { name: "App of get_quote" });
    const ask = appView.getByRole("alertdialog", { name: "Send this message to the conversation" });
    await expect(ask).toContainText("Which of these carriers should I pick for DE → US, 2 kg?");
    await appView.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("demo-app-chat-1440.png") });
    await ask.getByRole("button", { name: "Allow" }).click();
    await expect(inChat.getByRole("button", { name: "Sent to the chat" })).toBeVisible();
    const conversation = chat.getByRole("log", { name: "Conversation" });
    await expect(conversation.getByText(/^Which of these carriers should I pick for DE → US, 2 kg\? /)).toBeVisible();

    // The timeline: a get_quote call's details offer its app, with that call's input and result.
    await page.getByRole("tab", { name: "Timeline" }).click();
    const quoteRow = page.getByTestId("timeline-row").filter({ hasText: "shipping.get_quote" }).first();
    await quoteRow.getByRole("button").first().click();
    const details = page.getByRole("region", { name: /^Call \d+ details$/ });
    await details.getByRole("button", { name: "Show app" }).click();
    const inTimeline = appDocument(details, "get_quote");
    await expect(inTimeline.locator(".price")).toHaveText(/^\d+\.\d\d (EUR|USD|GBP)$/);
    await details.getByRole("region", { name: "App of get_quote" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("demo-app-timeline-1440.png") });
  });

  test("a run keeps its apps: with the server switched off, a call's app still shows, from the record", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping");
    await playground.setCode('return await shipping.get_quote({ carrier: "swiftair", origin: "FR", destination: "JP", weightKg: 3 });');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    const timeline = new TimelinePanel(page);
    await timeline.open();
    // The record gets its apps just after the run; switching the server off then leaves only the record.
    await timeline.openView("Runs");
    await expect(timeline.runs).toContainText("1 app");
    await page.getByRole("checkbox", { name: "Enable shipping" }).uncheck();
    await expect(page.getByTestId("server-status-shipping")).not.toHaveText("connected");
    await timeline.openView("Calls");
    await timeline.call(1).click();
    const details = page.getByRole("region", { name: "Call 1 details" });
    await details.getByRole("button", { name: "Show app" }).click();
    const app = appDocument(details, "get_quote");
    await expect(app.locator(".route")).toHaveText("FR → JP · 3 kg");
    await expect(app.locator(".carrier")).toHaveText("swiftair");
    // Its calls back have no server to reach, and say so.
    await app.getByRole("button", { name: "Compare carriers" }).click();
    await details.getByText(/^App log/).click();
    await expect(details.getByTestId("mcp-app-log")).toContainText("shipping is not connected: this app shows a recorded run.");
  });
});
