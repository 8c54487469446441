import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

test.describe("the typed tool API in the editor", () => {
  test.beforeEach(async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping", "news", "store", "lab");
  });

  test("completion after `shipping.` offers get_quote", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.setCode("const x = shipping.");
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget");
    await expect(suggest).toBeVisible({ timeout: 15_000 });
    await expect(suggest).toContainText("get_quote");
    await expect(suggest).toContainText("list_carriers");
  });

  test("a wrong argument type is marked before the code runs, and hover shows the tool's description", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.setCode("const quote = await shipping.get_quote({ carrier: 42 });\nreturn quote;");
    // The TypeScript service flags the number where the schema's enum of carrier ids is expected.
    await expect(playground.editor.locator(".squiggly-error").first()).toBeVisible({ timeout: 20_000 });
    await playground.editor.locator(".view-line", { hasText: "get_quote" }).getByText("get_quote").hover();
    const hover = page.locator(".monaco-hover").filter({ hasText: "Quotes the base price" });
    await expect(hover).toBeVisible({ timeout: 15_000 });
  });

  test("a server added while the page is open is in the editor's types at once, without a reload", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    // Monaco has loaded its types for the demo servers first.
    await playground.setCode("const x = shipping.");
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.press("Control+Space");
    await expect(page.locator(".suggest-widget")).toContainText("get_quote", { timeout: 15_000 });
    await page.keyboard.press("Escape");

    await servers.addServer("everything", `http://127.0.0.1:${process.env.E2E_EVERYTHING_PORT}/mcp`);
    await servers.expectConnected("everything");
    await playground.setCode("const y = everything.");
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget");
    await expect(suggest).toBeVisible({ timeout: 15_000 });
    await expect(suggest).toContainText("echo");
  });
});
