import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";

test.describe("the playground page and the sandbox", () => {
  test("loads with no console errors and no request to another host", async ({ page, baseURL }) => {
    const origin = new URL(baseURL ?? "").origin;
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith("data:") || url.startsWith("blob:")) return;
      if (new URL(url).origin !== origin) problems.push(`foreign request: ${url}`);
    });

    const playground = new PlaygroundPage(page);
    await playground.goto();
    await expect(page.getByRole("region", { name: "Servers" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Chat" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Output" })).toBeVisible();
    // The sample script runs as it ships.
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ count: 3, revenue: 172.49, biggest: ["A-1", "A-3"] });
    expect(problems).toEqual([]);
  });

  test("code typed in Monaco runs with Ctrl+Enter and its value and console show", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode('const xs = [1, 2, 3];\nconsole.warn("careful");\nxs.map((x) => x * 2)');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual([2, 4, 6]);
    const consoleSection = page.getByRole("region", { name: "Console" });
    await expect(consoleSection).toContainText("warn");
    await expect(consoleSection).toContainText("careful");
  });

  test("a TypeScript program runs: the worker loads its TypeScript stripper on demand, under its own policy", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode(
      "interface Sum { total: number }\nconst parts: number[] = [40, 2];\nconst sum: Sum = { total: parts.reduce((a, b) => a + b, 0) };\nreturn sum.total as number;",
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe(42);
    // A worker started after Stop (from the page's compiled module) strips TypeScript too.
    await playground.setCode("while (true) {}");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("running");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(playground.status).not.toHaveText("running", { timeout: 10_000 });
    await playground.setCode("const n: number = 6;\nreturn n * 7;");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe(42);
    expect(problems).toEqual([]);
  });

  test("an infinite loop ends with a timeout while the page stays responsive", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode("while (true) {}");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("running");
    // Another control works while the guest spins in its worker.
    const timelineTab = page.getByRole("tab", { name: "Timeline" });
    await timelineTab.click();
    await expect(timelineTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("No tool calls yet")).toBeVisible();
    await page.getByRole("tab", { name: "Output" }).click();
    await expect(playground.status).toHaveText("timeout", { timeout: 20_000 });
    await expect(playground.error).toContainText("timeout");
    // The worker is usable for the next run.
    await playground.setCode("return 40 + 2");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe(42);
  });

  test("Stop cancels a spinning run and the next run works", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode("let i = 0;\nwhile (true) { i++; }");
    await playground.runButton.click();
    await expect(playground.status).toHaveText("running");
    await playground.stopButton.click();
    await expect(playground.status).toHaveText("cancelled", { timeout: 5_000 });
    await playground.setCode('return "again"');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe("again");
  });

  test("a syntax error names its line, and a runtime error is marked on its line", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode("const a = 1;\nconst b = ;\nreturn a;");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("syntax");
    await expect(playground.error).toContainText("at line 2");

    // The TypeScript service does not flag a throw, so a squiggle on line 3 is the sandbox's marker.
    await playground.setCode('const a = 1;\nconst b = a + 1;\nthrow new Error("boom " + b);');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("runtime");
    await expect(playground.error).toContainText("boom 2");
    await expect(playground.error).toContainText("at line 3");
    const squiggle = playground.editor.locator(".view-overlays > div:has(.squiggly-error)");
    const line3 = playground.editor.locator(".view-lines > .view-line", { hasText: "throw new Error" });
    const line3Top = await line3.evaluate((el) => (el as HTMLElement).style.top);
    // Exactly one squiggle, on line 3. Polled: the TypeScript service re-checks new text after a
    // delay, and until it does, its squiggle for the old text's line 2 (`const b = ;`) can linger.
    await expect.poll(() => squiggle.evaluateAll((els) => els.map((el) => (el as HTMLElement).style.top))).toEqual([line3Top]);
  });

  test("run limits set in the editor apply to the next run and survive a reload", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.editor.getByRole("button", { name: /^Limits/ }).click();
    const form = page.getByRole("form", { name: "Run limits" });
    await form.getByLabel("CPU time").fill("0.5");
    await form.getByLabel("CPU time").blur();
    await form.getByLabel("Tool calls per run").fill("-3");
    await form.getByLabel("Tool calls per run").blur();
    await expect(form.getByRole("alert")).toBeVisible();
    await form.getByRole("button", { name: "Done" }).click();
    await expect(playground.editor.getByRole("button", { name: "Limits (1 changed)" })).toBeVisible();

    // A half-second CPU budget ends a spinning loop long before the 10 s default would.
    await playground.setCode("while (true) {}");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("timeout", { timeout: 8_000 });
    await page.reload();
    await expect(playground.editor.getByRole("button", { name: "Limits (1 changed)" })).toBeVisible();
  });

  test("the editor's code survives a reload", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.setCode("return 'kept across reloads'");
    // The save is debounced; wait until it lands rather than sleeping.
    await expect.poll(() => page.evaluate(() => localStorage.getItem("cmp:editor-code:v1"))).toContain("kept across reloads");
    await page.reload();
    await expect(playground.code).toContainText("kept across reloads");
  });
});
