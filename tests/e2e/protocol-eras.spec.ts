/**
 * A strict 2026-07-28 server in the page (docs/mcp-client.md, "Protocol eras"): built on the
 * v2 server package with no sessions and no `initialize`, added by URL beside the demo servers
 * (shipping, news and store speak 2026-07-28 too; lab stays 2025-11-25). It connects, each card
 * says which era it speaks, and a program calls servers of both eras; its tool that asks twice
 * through multi-round-trip requests reaches the person's forms. It offers tasks: a call it runs as
 * a task shows on the timeline as one, asks its question mid-way, and ends; Stop cancels one.
 */
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { startModernServer, type ModernServer } from "../fixtures/mcp/modern-server";
import { referenceBin } from "../fixtures/mcp/reference-servers";

let modern: ModernServer;
let publisher: ModernServer;
test.beforeAll(async () => {
  [modern, publisher] = await Promise.all([startModernServer(), startModernServer({ skills: true, tasks: false })]);
});
test.afterAll(async () => {
  await Promise.all([modern.close(), publisher.close()]);
});

/** A fresh page with the strict server added by URL and connected. */
async function withModern(page: Page): Promise<{ playground: PlaygroundPage; servers: ServersPanel }> {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await playground.goto();
  await servers.addServer("modern", `${modern.url}/mcp`);
  await servers.expectConnected("modern");
  return { playground, servers };
}

test.describe("protocol eras", () => {
  test("a strict 2026-07-28 server connects beside the demo servers of both eras, says so on its card, and a program calls it and answers its two rounds of questions", async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("modern", `${modern.url}/mcp`);
    await servers.expectConnected("modern", "lab", "shipping");
    await expect(page.getByTestId("server-protocol-modern")).toHaveText("2026-07-28 · stateless");
    await expect(page.getByTestId("server-protocol-shipping")).toHaveText("2026-07-28 · stateless");
    await expect(page.getByTestId("server-protocol-lab")).toHaveText("2025-11-25 · session");
    expect(modern.methods).not.toContain("initialize");
    // The 2026 demo's tool list carries a cache hint; the card says how long it holds.
    await expect(page.getByTestId("server-list-ttl-shipping")).toHaveText("(cached 5 min)");
    await expect(page.getByTestId("server-list-ttl-lab")).toHaveCount(0);
    // Roots are deprecated in 2026-07-28: still offered, labelled as 2025-era.
    await expect(page.getByRole("listitem", { name: "Server lab" }).getByText("Roots · none · 2025-era")).toBeVisible();

    await playground.setCode(
      'const [echoed, echoedToo, carriers, answers] = await Promise.all([modern.echo({ message: "hi" }), lab.echo({ message: "there" }), shipping.list_carriers({}), modern.two_questions({})]);\nreturn { echoed, echoedToo, carriers: carriers.carriers.length, answers };',
    );
    await playground.runWithShortcut();
    const dialog = page.getByRole("dialog", { name: "modern asks for input" });
    await expect(dialog).toContainText("Your name?");
    await dialog.getByRole("textbox", { name: "Name" }).fill("Ada");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(dialog).toContainText("Your colour, Ada?");
    await dialog.getByRole("textbox", { name: "Colour" }).fill("green");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toMatchObject({ echoed: "hi", carriers: 5, answers: { name: "Ada", colour: "green" } });
    // The timeline shows the call's rounds: two that asked, and the one that answered.
    const timeline = new TimelinePanel(page);
    await timeline.open();
    const row = timeline.row(4);
    await expect(row).toContainText("3 rounds");
    await row.getByRole("button").first().click();
    const asked = page.getByRole("list", { name: "What modern asked during call 4" });
    await expect(asked).toContainText("Round 1, input required: The server asked for input (elicitation): “Your name?” — answered");
    await expect(asked).toContainText("Round 2, input required: The server asked for input (elicitation): “Your colour, Ada?” — answered");
    await page.screenshot({ path: test.info().outputPath("mrtr-rounds.png") });
  });

  test("the Tools view's test call on a strict 2026-07-28 server: its two rounds of questions reach the person's forms, and a call it runs as a task shows as one and ends", async ({
    page,
  }) => {
    const { servers } = await withModern(page);

    await servers.openTool("modern", "two_questions");
    await page.getByRole("form", { name: "Test-call two_questions" }).getByRole("button", { name: "Call two_questions" }).click();
    const dialog = page.getByRole("dialog", { name: "modern asks for input" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Grace");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(dialog).toContainText("Your colour, Grace?");
    await dialog.getByRole("textbox", { name: "Colour" }).fill("blue");
    await dialog.getByRole("button", { name: "Accept" }).click();
    const result = page.getByTestId("test-call-result");
    await expect(result).toContainText("Grace");
    await expect(result).toContainText("blue");

    await page.getByRole("button", { name: "Back to tools" }).click();
    await servers.openTool("modern", "slow");
    const form = page.getByRole("form", { name: "Test-call slow" });
    await form.getByRole("button", { name: "Edit as JSON" }).click();
    await form.getByRole("textbox", { name: "Arguments JSON" }).fill('{ "ms": 1500 }');
    await form.getByRole("button", { name: "Call slow" }).click();
    await expect(page.getByTestId("test-call-result")).toContainText("slow done", { timeout: 15_000 });
    await expect(page.getByTestId("test-call-task")).toContainText(/task-\d+.*completed/);
    await page.getByTestId("test-call-task").scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("test-call-task.png") });
  });

  test("a call the server runs as a task: the timeline shows it working, its question reaches the person, it completes; Stop cancels a task that never ends", async ({
    page,
  }) => {
    const { playground } = await withModern(page);
    await expect(page.getByTestId("server-tasks-modern")).toBeVisible();

    await playground.setCode("return await modern.report({});");
    await playground.runWithShortcut();
    const timeline = new TimelinePanel(page);
    await timeline.open();
    await expect(timeline.row(1)).toContainText("task working");
    const dialog = page.getByRole("dialog", { name: "modern asks for input" });
    await expect(dialog).toContainText("Include the appendix?");
    await dialog.getByRole("checkbox", { name: "Appendix" }).check();
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(playground.status).toHaveText("ok");
    await expect(timeline.row(1)).toContainText("task completed");
    await timeline.row(1).getByRole("button").first().click();
    const details = page.getByTestId("call-task");
    await expect(details).toContainText(/modern ran this call as task task-\d+, which completed/);
    await expect(page.getByRole("list", { name: /Status messages of task/ })).toContainText("Writing the report");
    await expect(page.getByRole("list", { name: "What modern asked during call 1" })).toContainText(
      "The task asked: The server asked for input (elicitation): “Include the appendix?” — answered",
    );
    await expect(timeline.row(1)).not.toContainText("rounds");
    await details.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("task-completed.png") });
    await timeline.showOutput();
    expect(await playground.valueJson()).toEqual({ pages: 12, appendix: true });
    await timeline.open();

    const before = modern.tasks.size;
    await playground.setCode("return await modern.stuck({});");
    await playground.runWithShortcut();
    await expect(timeline.row(1)).toContainText("task working");
    await playground.stopButton.click();
    await expect(playground.status).not.toHaveText("running");
    await expect.poll(() => [...modern.tasks.values()][before]?.status).toBe("cancelled");
  });

  test("a task outlives a reload: its card lists it, asks its server by id where it stands, and shows its end", async ({ page }) => {
    const { playground, servers } = await withModern(page);
    await playground.setCode("return await modern.slow({ ms: 4000 });");
    await playground.runWithShortcut();
    const tasks = page.getByRole("list", { name: "Tasks on modern" });
    await expect(tasks).toContainText("task working");
    const taskId = (await tasks.getByRole("listitem").first().getAttribute("aria-label"))?.replace("Task ", "") ?? "";
    expect(taskId).toMatch(/^task-\d+$/);
    await page.reload();
    await servers.expectConnected("modern");
    const after = page.getByRole("list", { name: "Tasks on modern" }).getByRole("listitem", { name: `Task ${taskId}` });
    await expect(after).toContainText("slow");
    await expect(after).toContainText("task completed", { timeout: 15_000 });
    await expect(after).toContainText("slow done");
    // It was asked by its id after the reload: the page's new connection had not started it.
    expect(modern.methods.filter((m) => m === "tasks/get").length).toBeGreaterThan(0);
    await after.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("task-after-reload.png") });
    await after.getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByRole("list", { name: "Tasks on modern" })).toHaveCount(0);
  });

  test("skills a server publishes: listed only when the person opens them, a SKILL.md shown once its digest is checked, a tampered one refused, and put in the chat only on a click", async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("publisher", `${publisher.url}/mcp`);
    await servers.expectConnected("publisher");
    const card = page.getByRole("listitem", { name: "Server publisher" });
    expect(publisher.methods).not.toContain("skills/list");
    await card.getByText("Published skills").click();
    const list = card.getByRole("list", { name: "Published skills of publisher" });
    await expect(list).toContainText("summarise");
    await expect(list).toContainText("tampered");
    await list.getByRole("listitem").filter({ hasText: "summarise" }).getByRole("button", { name: "Show SKILL.md" }).click();
    const shown = card.getByLabel("skill://summarise/SKILL.md as text");
    await expect(shown).toContainText("Read the page, then write three lines.");
    await expect(shown).toContainText("size and digest checked");
    await shown.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("published-skill.png") });
    await shown.getByRole("button", { name: "Use in chat" }).click();
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue(/Read the page, then write three lines\./);

    await list.getByRole("listitem").filter({ hasText: "tampered" }).getByRole("button", { name: "Show SKILL.md" }).click();
    const refusal = card.getByRole("alert");
    await expect(refusal).toContainText("Not shown:");
    await expect(refusal).toContainText("digest");
    await expect(card).not.toContainText("careless");
  });

  test("the same server refuses a 2025-only client with 400 and -32022: the error that page showed before, now only when the era is forced", async ({
    request,
  }) => {
    const answer = await request.post(`${modern.url}/mcp`, {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      data: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      },
    });
    expect(answer.status()).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain("-32022");
  });

  test("an mcp.json that forces an era: the card says so and speaks it, and the edit form sets it back to negotiate", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.importConfig({
      old_shipping: { type: "http", url: `http://127.0.0.1:${process.env.E2E_PORT}/api/demo-mcp/shipping`, protocolEra: "legacy" },
      strict: { type: "http", url: `${modern.url}/mcp`, protocolEra: "legacy" },
    });
    await servers.expectConnected("old_shipping");
    await expect(page.getByTestId("server-protocol-old_shipping")).toHaveText("2025-11-25 · session");
    const card = page.getByRole("listitem", { name: "Server old_shipping" });
    await expect(card).toContainText("2025-11-25 forced");
    // The strict server refuses 2025: the card's error says which era was asked for, not "check the URL".
    const strict = page.getByRole("listitem", { name: "Server strict" });
    await expect(page.getByTestId("server-status-strict")).toHaveText("error");
    await expect(strict).toContainText("2025-11-25");
    await expect(strict).not.toContainText("Check the URL");
    await expect(strict).toContainText("Negotiate");
    await strict.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("forced-era.png") });

    await card.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit old_shipping" });
    await form.getByLabel("Protocol era").scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("era-form.png") });
    await form.getByLabel("Protocol era").selectOption("auto");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("server-protocol-old_shipping")).toHaveText("2026-07-28 · stateless");
    await expect(card).not.toContainText("2025-11-25 forced");
  });

  test("local (stdio) servers of both eras in the page: a strict 2026-07-28 one reached statelessly through the bridge beside the reference memory server's 2025 session, and a program calls both", async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    await servers.addStdioServer("strict_local", process.execPath, [path.resolve("tests/fixtures/mcp/modern-stdio.mjs")]);
    await servers.addStdioServer("memory", process.execPath, [referenceBin("@modelcontextprotocol/server-memory", "mcp-server-memory")]);
    await servers.expectConnected("strict_local", "memory");
    await expect(page.getByTestId("server-protocol-strict_local")).toHaveText("2026-07-28 · stateless");
    await expect(page.getByTestId("server-protocol-memory")).toHaveText("2025-11-25 · session");
    await page.getByRole("listitem", { name: "Server strict_local" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("stdio-eras.png") });

    await playground.setCode(
      'const [echoed, graph] = await Promise.all([strict_local.echo({ message: "local" }), memory.read_graph({})]);\nreturn { echoed, graph: Array.isArray(graph.entities) };',
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    expect(await playground.valueJson()).toEqual({ echoed: "local", graph: true });
  });
});
