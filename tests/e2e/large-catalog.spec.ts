/**
 * Code mode where it wins, in the compare view: the 19 captured public servers of the large
 * catalog (evals/catalog/, 290 tools, served offline by the catalog host) beside the demo
 * servers, one prompt in three lanes (code mode, classic with every tool, classic with tool
 * search). The code lane's request gives the API as tool search and says so; the verdict names
 * the kind of task and sets code mode against both classic baselines.
 */
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { loadCatalogServers } from "../../lib/evals/node/catalog-servers";
import { startCatalogHost } from "../../lib/demo-servers/node/catalog-host";

const captured = loadCatalogServers();
let host: Awaited<ReturnType<typeof startCatalogHost>> | undefined;

test.beforeAll(async () => {
  host = await startCatalogHost(captured);
});
test.afterAll(async () => {
  await host?.close();
});

test.describe("a large catalog in the compare view", () => {
  test.describe.configure({ timeout: 180_000 });

  test("code mode, classic and classic with tool search on one prompt: the forms each lane used, and a verdict per kind of task", async ({ page }) => {
    await new PlaygroundPage(page).goto();
    const servers = new ServersPanel(page);
    await servers.expectConnected("shipping", "news", "store", "lab");
    await servers.importConfig(Object.fromEntries(captured.map((s) => [s.name, { type: "http", url: host!.urlFor(s.name) }])));
    await servers.expectConnected(...captured.map((s) => s.name));

    await page.getByRole("button", { name: "Compare modes" }).click();
    const dialog = page.getByRole("dialog", { name: /Compare code mode and classic/ });
    await dialog
      .getByRole("textbox", { name: "Prompt" })
      .fill("Find GitHub repositories about the Model Context Protocol and count the latest commits of the top three.");
    await dialog.getByRole("button", { name: "Add lane" }).click();
    await dialog.getByRole("combobox", { name: "Lane 3 mode" }).selectOption("classic-search");
    await dialog.getByRole("button", { name: "Run compare" }).click();
    await expect(dialog.getByRole("button", { name: "Run compare" })).toBeVisible({ timeout: 120_000 });

    // What each lane's first request gave the model, and why (the cell's title).
    await expect(dialog.getByTestId("compare-form-1")).toHaveText("tool search (namespaces)");
    await expect(dialog.getByTestId("compare-form-1")).toHaveAttribute(
      "title",
      /^Tool search: the declarations take about [\d\u00a0 ]+ tokens, over the budget of 4\u00a0000\.$/,
    );
    await expect(dialog.getByTestId("compare-form-2")).toHaveText("every tool");
    await expect(dialog.getByTestId("compare-form-3")).toHaveText("tool search (deferred tools)");
    for (const lane of [1, 2, 3]) await expect(dialog.locator("details").nth(lane - 1)).toContainText("commits");
    await expect(dialog.getByTestId("compare-verdict")).toHaveText(
      /^This prompt looks like a large catalog \(code mode's request gave the API as tool search: the declarations are over the budget\)\. Code mode sends [\d.]+× fewer input tokens here.*: a large catalog\. Against classic with tool search, code mode sends [\d.]+× fewer input tokens here/,
    );
    await dialog.screenshot({ path: test.info().outputPath("large-catalog-compare.png") });
  });
});
