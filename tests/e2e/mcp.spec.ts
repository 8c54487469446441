import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

const require = createRequire(import.meta.url);
const memoryPackage = require.resolve("@modelcontextprotocol/server-memory/package.json");
const memoryBin = path.join(path.dirname(memoryPackage), (require(memoryPackage) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");

const everythingUrl = () => `http://127.0.0.1:${process.env.E2E_EVERYTHING_PORT}/mcp`;

test.describe("MCP servers", () => {
  test("the demo servers connect, list their tools, and a tool can be test-called", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.expectConnected("shipping", "news", "store", "lab");
    await servers.openTool("shipping", "list_carriers");
    const details = page.getByLabel("Tool list_carriers");
    await expect(details.getByText("shipping.list_carriers(…)")).toBeVisible();
    await details.getByRole("button", { name: "Call list_carriers" }).click();
    const result = page.getByTestId("test-call-result");
    await expect(result).toContainText("structuredContent");
    await expect(result).toContainText("swiftair");
    await expect(result).toContainText("isError false");
    // The result copies as JSON, and its text content (JSON) reads parsed rather than escaped.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await result.getByRole("button", { name: "Copy structuredContent" }).click();
    await expect(result.getByRole("button", { name: "Copy structuredContent" })).toHaveText("Copied");
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { carriers: Array<{ id: string }> };
    expect(copied.carriers.map((c) => c.id)).toContain("swiftair");
    await expect(result.getByRole("tree", { name: "content", exact: true })).toContainText('"text (JSON)"');
  });

  test("a test call with a form built from the schema reports a server error as isError", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.expectConnected("lab");
    await servers.openTool("lab", "fail");
    const details = page.getByLabel("Tool fail");
    await details.getByRole("textbox", { name: "message" }).fill("it broke on purpose");
    await details.getByRole("button", { name: "Call fail" }).click();
    const result = page.getByTestId("test-call-result");
    await expect(result).toContainText("isError true");
    await expect(result).toContainText("it broke on purpose");
  });

  test("a script calls two servers in parallel and both calls land on the timeline", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.expectConnected("shipping", "news");
    await playground.setCode(
      [
        "const [carriers, found] = await Promise.all([",
        "  shipping.list_carriers(),",
        '  news.web_search({ query: "climate" }),',
        "]);",
        "return { carriers: carriers.carriers.length, total: found.total };",
      ].join("\n"),
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual({ carriers: 5, total: 7 });
    await expect(page.getByLabel("Run statistics")).toContainText("peak in flight 2");
    await page.getByRole("tab", { name: "Timeline" }).click();
    const rows = page.getByTestId("timeline-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("shipping.list_carriers");
    await expect(rows.nth(1)).toContainText("news.web_search");
    await expect(rows.nth(0)).toContainText("ok");
    await expect(rows.nth(1)).toContainText("ok");
    await page.getByRole("button", { name: "news.web_search" }).click();
    await expect(page.getByText('"query": "climate"').first()).toBeVisible();
    // The call links to the line of code that made it (line 3 of the script).
    await page.getByRole("button", { name: "line 3" }).click();
    await expect(playground.editor.locator(".active-line-number")).toHaveText("3");
  });

  test("invalid arguments throw in the guest with the validation message and show on the timeline", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.expectConnected("shipping");
    await playground.setCode('return await shipping.get_quote({ carrier: "nobody", weightKg: "heavy" });');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("tool");
    await expect(playground.error).toContainText("Invalid arguments");
    await page.getByRole("tab", { name: "Timeline" }).click();
    await expect(page.getByTestId("timeline-row")).toContainText("error");
  });

  test("a server added by URL connects, shows its tools, and its tools run from the sandbox", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("everything", everythingUrl());
    await servers.expectConnected("everything");
    await servers.openToolsTab();
    await expect(servers.root.getByRole("region", { name: "Tools of everything" })).toContainText("echo");
    await playground.setCode('const r = await everything.echo({ message: "hello from the sandbox" });\nreturn r;');
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    await playground.showValueAsText();
    await expect(playground.value).toContainText("hello from the sandbox");

    // Image content comes back as an image, never as raw base64 or HTML.
    await playground.setCode("return await everything.get_tiny_image({});");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    await page.getByRole("group", { name: "Show the value as" }).getByRole("button", { name: "Tree" }).click();
    const image = page.getByRole("tree", { name: "Returned value" }).getByRole("img", { name: "Image content (image/png)" });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(20);
  });

  test("an unreachable server shows a clear error and the app stays usable", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    // Port 9 (discard) on loopback: nothing listens there.
    await servers.addServer("nowhere", "http://127.0.0.1:9/mcp");
    await expect(servers.status("nowhere")).toHaveText("error", { timeout: 30_000 });
    // Local mode: the proxy may reach loopback, so the error names the real cause, not CORS.
    await expect(servers.root.getByRole("alert").filter({ hasText: /the connection was refused/ })).toBeVisible();
    await expect(servers.root.getByRole("alert").filter({ hasText: /CORS/ })).toHaveCount(0);
    await playground.setCode("return 1 + 1");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
  });

  test("a pasted command line (quotes, a path with spaces) is split into command and arguments, shown before saving, and the server starts", async ({
    page,
  }) => {
    // server-memory behind a launcher whose path has spaces, as a person's own server often is.
    const dir = await mkdtemp(path.join(os.tmpdir(), "cmp server dir "));
    const launcher = path.join(dir, "memory server.mjs");
    await writeFile(launcher, `import ${JSON.stringify(pathToFileURL(memoryBin).href)};\n`);
    try {
      const servers = new ServersPanel(page);
      await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
      await servers.openServersTab();
      await servers.root.getByRole("button", { name: "Add server" }).click();
      const form = servers.root.getByRole("form", { name: "Add server" });
      await form.getByLabel("Name (the code namespace)").fill("pasted");
      await form.getByLabel("Transport").selectOption("stdio");
      await form.getByRole("textbox", { name: "Command" }).fill(`"${process.execPath}" '${launcher}'`);
      await expect(form.getByTestId("command-preview")).toHaveText(`Runs ${process.execPath} with the argument ${launcher}`);
      await form.getByRole("textbox", { name: "Command" }).fill("cat x | srv");
      await form.getByRole("button", { name: "Add" }).click();
      await expect(form.getByRole("alert")).toHaveText('"|" is shell syntax; a server is one command with its arguments, run without a shell');
      await form.getByRole("textbox", { name: "Command" }).fill(`"${process.execPath}" '${launcher}'`);
      await expect(form.getByRole("alert")).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath("pasted-command.png") });
      await form.getByRole("button", { name: "Add" }).click();
      await servers.expectConnected("pasted");
      const card = page.getByRole("listitem", { name: "Server pasted" });
      await card.getByRole("button", { name: "Edit" }).click();
      const edit = servers.root.getByRole("form", { name: "Edit pasted" });
      await expect(edit.getByRole("textbox", { name: "Command" })).toHaveValue(process.execPath);
      await expect(edit.getByLabel("Arguments (one per line)")).toHaveValue(launcher);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a reload takes the page's local servers over at once: the same process serves the reloaded page, and no second one starts", async ({ page }) => {
    // Marked through its environment, so this test counts its own processes among the app's.
    const mark = `reload-${Date.now()}`;
    const marked = () =>
      readdirSync("/proc").filter((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          return readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(`CMP_E2E_MARK=${mark}`);
        } catch {
          return false;
        }
      });
    const servers = new ServersPanel(page);
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    await servers.importConfig({ memory: { command: process.execPath, args: [memoryBin], env: { CMP_E2E_MARK: mark } } });
    await servers.expectConnected("memory");
    const before = marked();
    expect(before).toHaveLength(1);
    await page.reload();
    await servers.expectConnected("memory");
    expect(marked()).toEqual(before);
  });

  test("Explore on a stdio server (server-memory) writes a program that runs ok with no model and no key; the code it replaced stays in the history", async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await page.goto(`/#cmp-token=${process.env.E2E_LOCAL_TOKEN}`);
    await servers.addStdioServer("memory", process.execPath, [memoryBin]);
    await servers.expectConnected("memory");
    const card = page.getByRole("listitem", { name: "Server memory" });
    await expect(card).toContainText("stdio via the local bridge");
    await expect(card).toContainText(/\b9 tools\b/);
    // A running stdio server's stderr shows in its view.
    await card.getByText("stderr", { exact: true }).click();
    await expect(card.getByRole("group", { name: "stderr of memory" })).toContainText("Knowledge Graph MCP Server running on stdio");
    await playground.setCode("return 'my own code';");
    await card.getByRole("button", { name: "Explore" }).click();
    await expect(playground.code).toContainText("memory.read_graph");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const value = (await playground.valueJson()) as { answers: Record<string, unknown>; notCalled: string[] };
    expect(value.answers.read_graph).toEqual({ entities: [], relations: [] });
    expect(value.notCalled.some((t) => t.startsWith("memory.create_entities"))).toBe(true);
    // The value's tree folds and searches: a hit opens the branches above it.
    await page.getByRole("group", { name: "Show the value as" }).getByRole("button", { name: "Tree" }).click();
    await page.getByRole("searchbox", { name: "Search Returned value" }).fill("create_entities");
    await expect(page.getByRole("region", { name: "Output" }).getByRole("status").filter({ hasText: "1 match" })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: "test-results/explore-memory-1280.png" });
    // The code the program replaced is one pick away.
    await expect(playground.editor.getByRole("combobox", { name: "Code history" })).toContainText("return 'my own code';");
  });
});
