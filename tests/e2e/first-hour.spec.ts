/**
 * What a new user tripped over in their first hour, each as they met it (issue 29): a server's
 * question whose buttons were below the dialog's edge, a test call that vanished on a tab
 * switch, a resource list whose buttons ran together.
 */
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

const everythingUrl = `http://127.0.0.1:${process.env.E2E_EVERYTHING_PORT}/mcp`;

test.describe("a person's first hour", () => {
  test("a long elicitation form keeps Accept, Decline and Cancel in view at 1280×720 and 1440×900", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await page.setViewportSize({ width: 1280, height: 720 });
    await playground.goto();
    await servers.addServer("everything", everythingUrl);
    await servers.expectConnected("everything");
    await playground.setCode("return await everything.trigger_elicitation_request({});");
    await playground.runWithShortcut();
    const dialog = page.getByRole("dialog", { name: "everything asks for input" });
    await expect(dialog).toBeVisible();
    for (const name of ["Accept", "Decline", "Cancel"]) await expect(dialog.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: "test-results/elicitation-1280.png" });
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const name of ["Accept", "Decline", "Cancel"]) await expect(dialog.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: "test-results/elicitation-1440.png" });
    await dialog.getByRole("textbox").first().fill("Ada Lovelace");
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(playground.status).toHaveText("ok");
  });

  test("a test call still running when the person switches tabs is there, and answered, when they come back", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("everything", everythingUrl);
    await servers.expectConnected("everything");
    await servers.openTool("everything", "trigger-long-running-operation");
    const tools = servers.root;
    await tools.getByRole("button", { name: "Call trigger-long-running-operation" }).click();
    await expect(tools.getByText("Calling…")).toBeVisible();
    await servers.openServersTab();
    await servers.openToolsTab();
    await servers.openTool("everything", "trigger-long-running-operation");
    // Still calling (the tool takes 10 s by default), then its answer.
    await expect(tools.getByText("Calling…")).toBeVisible();
    await expect(tools.getByText(/Long running operation completed/)).toBeVisible({ timeout: 20_000 });
  });

  test("a resource's Read and Subscribe are two buttons apart", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("everything", everythingUrl);
    await servers.expectConnected("everything");
    const card = page.getByRole("listitem", { name: "Server everything" });
    await card.getByText("Prompts and resources").click();
    const first = card.getByRole("list", { name: "Resources of everything" }).getByRole("listitem").first();
    const read = (await first.getByRole("button", { name: "Read" }).boundingBox())!;
    const subscribe = (await first.getByRole("button", { name: "Subscribe" }).boundingBox())!;
    expect(subscribe.x - (read.x + read.width)).toBeGreaterThanOrEqual(8);
  });

  test("a reload with code and a session of one's own hydrates without a mismatch (React error #418)", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    const playground = new PlaygroundPage(page);
    await playground.goto();
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();
    await page.getByRole("alert", { name: "Model code waiting" }).getByRole("button", { name: "Run" }).click();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    await playground.setCode("return 'my own code';");
    // The code is saved 300 ms after the last change, the session 800 ms after.
    await page.waitForTimeout(1_500);
    await page.reload();
    await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    await expect(playground.code).toContainText("my own code");
    await page.waitForTimeout(500);
    expect(problems.filter((p) => /#418|hydrat/i.test(p))).toEqual([]);
  });
});
