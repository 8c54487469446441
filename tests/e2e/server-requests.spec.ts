import { expect, test } from "./fixtures";
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

test.describe("a server asks the person during a call", () => {
  test("elicitation from a sandbox run: a form from the schema, the answer reaches the run's value, the timeline notes it", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await servers.addServer("asker", host.url);
    await servers.expectConnected("asker");

    await playground.setCode('const booking = await asker.book_table({ restaurant: "Trattoria" });\nreturn booking;');
    await playground.runWithShortcut();
    const dialog = page.getByRole("dialog", { name: "asker asks for input" });
    await expect(dialog).toContainText("Who is the table at Trattoria for?");
    await expect(dialog).toContainText("During call #1; the run waits for your answer.");
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
});
