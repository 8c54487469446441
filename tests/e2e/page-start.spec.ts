import { expect, test, type Page } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

/** Opens the page with its JavaScript chunks held back until `release()`: the server-rendered page, before hydration. */
async function openWithScriptsHeld(page: Page): Promise<{ release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  return { release };
}

// The page's start (docs/speed.md, "The page's start"): what a person can do before the
// page has hydrated, and what waits until they come to it. Timings are the bench's (`npm run bench
// -- --only peers`); these tests hold the behaviour.
test.describe("the page's start", () => {
  test("an example prompt clicked while the page's scripts are still loading is answered once it has hydrated", async ({ page }) => {
    // The scripts arrive late, so the click surely lands on the server-rendered page.
    const { release } = await openWithScriptsHeld(page);
    const chat = page.getByRole("region", { name: "Chat" });
    const prompt = chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ });
    await expect(prompt).toBeVisible();
    // The server-rendered page cannot know the servers' state, and does not guess "not connected".
    await expect(chat.getByRole("region", { name: "Shipping examples" })).not.toContainText("not connected");
    await prompt.click();
    expect(await page.evaluate(() => performance.getEntriesByName("cmp:hydrated").length)).toBe(0);
    // Taken at once: the button shows it is waiting for the page.
    await expect(prompt).toHaveAttribute("data-early-click", "");
    release();
    // The prompt went to the model: its message is in the conversation and the program waits in the editor.
    await expect(prompt).toHaveCount(0);
    await expect(chat.getByText(/cheapest to ship 2 kg from DE to US/)).toBeVisible();
    await expect(page.getByRole("alert", { name: "Model code waiting" })).toBeVisible({ timeout: 20_000 });
    await expect(new PlaygroundPage(page).code).toContainText("shipping.list_carriers");
  });

  test("the sandbox worker the page's first lines start is the one it uses, even with its scripts held back; the first-load scripts carry V8's compile hint", async ({
    page,
    request,
  }) => {
    const { release } = await openWithScriptsHeld(page);
    // The worker starts while the page's JavaScript has not even arrived: its messages wait for the page.
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as Record<string, unknown>).__cmpEarlyWorker)).toBe("object");
    await page.waitForTimeout(300);
    release();
    await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    const workers = await page.evaluate(
      () => performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/_sandbox/sandbox-worker.js").length,
    );
    expect(workers).toBe(1);
    expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__cmpEarlyWorker)).toBeNull();
    const playground = new PlaygroundPage(page);
    await playground.setCode("return 6 * 7;");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toBe(42);

    // scripts/compile-hints.mjs: every script the page's HTML loads (bar the polyfills, which this browser skips) is marked.
    const html = await (await request.get("/")).text();
    const scripts = [...html.matchAll(/<script src="([^"]+\.js)"(?![^>]*nomodule)/gi)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(5);
    for (const src of scripts) expect((await (await request.get(src)).text()).startsWith("//# allFunctionsCalledOnLoad\n"), src).toBe(true);
  });

  test("the first-load scripts leave out the libraries the page never runs; the YAML parser loads with the first YAML suite", async ({ page, request }) => {
    // next.config.js puts lib/bundle/browser/ in their place; each is named by a string only its code holds.
    const html = await (await request.get("/")).text();
    const scripts = [...html.matchAll(/<script src="([^"]+\.js)"/gi)].map((m) => m[1]!);
    const code = (await Promise.all(scripts.map(async (src) => (await request.get(src)).text()))).join("\n");
    // A budget, so a heavy import on the page's path shows here (docs/benchmarks.md: usable follows
    // the JavaScript the page compiles before it hydrates; about 1.356 million characters today,
    // the tasks kept across reloads, the published-skills store, a card's resources and the
    // share-link store included; their machinery and views, and an MCP App's host, load on first use).
    expect(code.length, "the first-load JavaScript, in characters").toBeLessThan(1_360_000);
    // zod's English messages are there (the check sees library code at all)...
    expect(code).toContain("Invalid input: expected ");
    // ...and none of these: Ajv (the MCP SDK's default validator), the AI Gateway provider, zod's other locales, the YAML parser.
    for (const marker of ["schema with key or id", "ai-gateway.vercel.sh", "Ungültige Eingabe", "Implicit keys need to be on a single line"])
      expect(code).not.toContain(marker);
    // The MCP SDK's client (its transports) and the AI SDK's chat transport load after the first screen (lib/bundle/load-later.ts).
    for (const marker of ["Failed to open SSE stream", "prepareReconnectToStreamRequest"]) expect(code).not.toContain(marker);

    const yamlLoaded = page.waitForResponse(
      async (response) => response.url().includes("/_next/static/chunks/") && (await response.text()).includes("Implicit keys need"),
    );
    await new PlaygroundPage(page).goto();
    await page.getByRole("button", { name: "Evals" }).click();
    const dialog = page.getByRole("dialog", { name: "Evals" });
    await dialog.getByText("Paste a suite (JSON or YAML)").click();
    await dialog.getByRole("textbox", { name: "Suite text" }).fill("name: from-yaml\ncases:\n  - name: quotes\n    prompt: hello\n    servers: [shipping]\n");
    await dialog.getByRole("button", { name: "Load", exact: true }).click();
    await yamlLoaded;
    await expect(dialog).toContainText("from-yaml: 1 case");
  });

  test("the MCP client loads once the first screen is up, and the demo servers connect through it", async ({ page }) => {
    const clientLoaded = page.waitForResponse(
      async (response) => response.url().includes("/_next/static/chunks/") && (await response.text()).includes("Failed to open SSE stream"),
    );
    await page.goto("/");
    await clientLoaded;
    await new ServersPanel(page).expectConnected("shipping", "store", "news", "lab");
  });

  test("when the MCP client's chunk cannot load, every server says so and what to do; once it can, Reconnect connects", async ({ page }) => {
    // The server answers the chunk with a 404 (Turbopack's runtime tries a chunk twice), as after an
    // upgrade that removed it, until `gone` is cleared.
    let gone = true;
    let refused = 0;
    await page.route("**/_next/static/chunks/*.js", async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (gone && body.includes("Failed to open SSE stream")) {
        refused++;
        return route.fulfill({ status: 404, body: "gone" });
      }
      return route.fulfill({ response, body });
    });
    await page.goto("/");
    const servers = new ServersPanel(page);
    for (const name of ["shipping", "store", "news", "lab"]) {
      const card = page.getByRole("listitem", { name: `Server ${name}` });
      await expect(servers.status(name)).toHaveText("error");
      await expect(card).toContainText(/The playground could not load its MCP client \(.+\)\. Reload the page\./);
    }
    expect(refused).toBeGreaterThan(0);
    gone = false;
    await page.getByRole("listitem", { name: "Server shipping" }).getByRole("button", { name: "Reconnect" }).click();
    await servers.expectConnected("shipping");
  });

  test("the code shows as text until the person points at it; then Monaco loads, with the focus where they clicked", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await page.goto("/");
    await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    const preview = playground.editor.getByLabel(/^Code \(the editor loads/);
    await expect(preview).toContainText("return");
    // Quiet: nothing loads Monaco while the person is elsewhere.
    await page.waitForTimeout(1_500);
    await expect(playground.editor.locator(".monaco-editor")).toHaveCount(0);
    await preview.click();
    await expect(playground.editor.locator(".monaco-editor .view-lines")).toBeVisible();
    await expect(playground.editor.locator(".monaco-editor.focused")).toHaveCount(1);
  });
});
