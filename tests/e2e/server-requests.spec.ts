import { expect, test, type Page } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { askingServer, startMcpHttpServer } from "../fixtures/mcp/test-servers";
import type { StatefulHost } from "../fixtures/mcp/test-servers";

// A server whose tool asks the person for input in the middle of a call (elicitation).
let host: StatefulHost;

test.beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});

test.afterAll(async () => {
  await host.close();
});

/** The playground with the asking server added and connected. */
async function openWithAsker(page: Page) {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await playground.goto();
  await servers.addServer("asker", host.url);
  await servers.expectConnected("asker");
  return { playground, servers, timeline: new TimelinePanel(page) };
}

test.describe("a server asks the person during a call", () => {
  test("elicitation from a sandbox run: a form from the schema, the answer reaches the run's value, the timeline notes it", async ({ page }) => {
    const { playground, timeline } = await openWithAsker(page);

    await playground.setCode('const booking = await asker.book_table({ restaurant: "Trattoria" });\nreturn booking;');
    await playground.runWithShortcut();
    const dialog = page.getByRole("dialog", { name: "asker asks for input" });
    await expect(dialog).toContainText("Who is the table at Trattoria for?");
    await expect(dialog).toContainText("During call #1; the run waits for your answer.");
    // Said where the person looks, as approvals are: the run's status and the page title.
    await expect(playground.status).toHaveText("waiting for you: asker asks for input");
    await expect(page).toHaveTitle(/^● Waiting for you · /);
    // The schema's defaults are filled in; the person types the name.
    await expect(dialog.getByRole("textbox", { name: "Seats" })).toHaveValue("2");
    await dialog.getByRole("textbox", { name: "Name" }).fill("Ada");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ action: "accept", content: { name: "Ada", seats: 2, terrace: false } });

    await timeline.open();
    const row = timeline.row(1);
    await expect(row).toContainText("asked");
    await row.getByRole("button").first().click();
    await expect(page.getByRole("list", { name: "What asker asked during call 1" })).toContainText("Who is the table at Trattoria for?” — answered");

    // Declining: the server hears it, the value says so.
    await timeline.showOutput();
    await playground.setCode("return await asker.book_table({});");
    await playground.runWithShortcut();
    await page.getByRole("dialog", { name: "asker asks for input" }).getByRole("button", { name: "Decline" }).click();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ action: "decline", content: null });
  });

  test("one call asks for input, then for a completion: the person answers both, the chat's model (the demo model) writes it, the value and the timeline show both", async ({
    page,
  }) => {
    const { playground, timeline } = await openWithAsker(page);
    await playground.setCode("return await asker.plan_dinner({});");
    await playground.runWithShortcut();

    const input = page.getByRole("dialog", { name: "asker asks for input" });
    await input.getByRole("textbox", { name: "Guest" }).fill("Ada");
    await input.getByRole("button", { name: "Accept" }).click();

    const sampling = page.getByRole("dialog", { name: "asker asks the model" });
    await expect(sampling).toContainText("Up to 100 tokens · the server prefers claude · answered by the chat's model: the demo model");
    // The person edits the request before it is sent.
    const message = sampling.getByRole("textbox", { name: "User message (edit before it is sent)" });
    await expect(message).toHaveValue("Write a one-line greeting for Ada.");
    await message.fill("Write a one-line greeting for Ada Lovelace.");
    await sampling.getByRole("button", { name: "Ask the demo model" }).click();
    const completion = sampling.getByRole("textbox", { name: "Completion" });
    await expect(completion).toHaveValue(/^\(Demo model, offline: a canned answer\.\) You asked: "Write a one-line greeting for Ada Lovelace\."/);
    // ... and the completion before it goes back.
    await completion.fill("Welcome, Ada!");
    await sampling.getByRole("button", { name: "Send to the server" }).click();

    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ guest: "Ada", greeting: "Welcome, Ada!", model: "demo" });
    await timeline.open();
    await timeline.row(1).getByRole("button").first().click();
    const asked = page.getByRole("list", { name: "What asker asked during call 1" });
    await expect(asked).toContainText("(elicitation): “Who is coming to dinner?” — answered");
    await expect(asked).toContainText("(sampling): “Write a one-line greeting for Ada.” — answered");
  });

  test("what a server logs during a run shows on its card and on the call; the level goes to the server", async ({ page }) => {
    const { playground, servers, timeline } = await openWithAsker(page);
    await playground.setCode("return await asker.chatty({ count: 2 });");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    const card = servers.root.getByRole("listitem", { name: "Server asker" });
    await card.getByText("Log · 3 messages").click();
    const log = card.getByRole("list", { name: "Log messages of asker" });
    await expect(log).toContainText("info [chatty] (call #1) message 1");
    // Secrets in log data never show.
    await expect(log).toContainText('warning (call #1) {"note":"almost done","token":"Bearer [redacted]"}');
    await timeline.open();
    await timeline.row(1).getByRole("button").first().click();
    await expect(page.getByRole("list", { name: "What asker logged during call 1" })).toContainText("info message 0");

    // Only warnings and above from now on.
    await card.getByRole("combobox", { name: "Log level of asker" }).selectOption("warning");
    await timeline.showOutput();
    await playground.setCode("return await asker.chatty({ count: 5 });");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    await expect(card.getByText("Log · 4 messages")).toBeVisible();
  });

  test("resources and prompts: read, fill a template, get a prompt on the card, and read from code", async ({ page }) => {
    const { playground, servers } = await openWithAsker(page);
    const card = servers.root.getByRole("listitem", { name: "Server asker" });
    await card.getByText("Prompts and resources").click();
    await card.getByRole("list", { name: "Resources of asker" }).getByRole("button", { name: "Read" }).click();
    await expect(card.getByRole("region", { name: "Contents of memo://note" })).toContainText("first draft");
    await card.getByRole("combobox", { name: "Resource URI of asker" }).fill("memo://day/friday");
    await card.getByRole("button", { name: "Read", exact: true }).last().click();
    await expect(card.getByRole("region", { name: "Contents of memo://day/friday" })).toContainText("memo for friday");
    await card.getByRole("textbox", { name: "greet who" }).fill("Ada");
    await card.getByRole("button", { name: "Get" }).click();
    await expect(card.getByRole("region", { name: "Prompt greet" })).toContainText("user: Say hello to Ada.");
    await card.getByRole("button", { name: "Use in chat" }).click();
    await expect(page.getByRole("region", { name: "Chat" }).getByRole("textbox", { name: "Message" })).toHaveValue("Say hello to Ada.");

    await playground.setCode('return await asker.$readResource({ uri: "memo://day/monday" });');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ contents: [{ uri: "memo://day/monday", text: "memo for monday" }] });
  });
});
