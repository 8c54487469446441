import { observePageRequests } from "./pages/app-requests";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { decodeShareState } from "../../lib/share/decode";

const SECRET = "sk-live-9f8e7d6c5b4a-share-e2e";

test.describe("sharing a playground", () => {
  test("a link restores the code and its Inputs in a fresh browser, carries no secret, and runs nothing until Run", async ({ page, browser, baseURL }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.expectConnected("shipping");
    // A secret header on a server: it must not travel in the link.
    await servers.addServer("private", "http://127.0.0.1:9/mcp", `Authorization: Bearer ${SECRET}`);
    // A chat exchange (the offline demo model answers with help text): the link must carry it.
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("textbox", { name: "Message" }).fill("Which tools can you reach from here?");
    await chat.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(chat.getByRole("log", { name: "Conversation" })).toContainText(/API key|provider/i, { timeout: 20_000 });
    const code = "const r = await shipping.list_carriers();\nreturn r.carriers.map((c) => c.id).slice(0, maxCarriers);";
    await playground.setCode(code);
    await playground.editor.getByRole("button", { name: /^Inputs/ }).click();
    await playground.editor.getByRole("textbox", { name: "Inputs JSON" }).fill('{ "maxCarriers": 3 }');

    await page.getByRole("button", { name: "Share" }).click();
    const link = await page.getByLabel("Share link").inputValue();
    expect(link).toContain("#share=");
    const decoded = await decodeShareState(decodeURIComponent(link.split("#share=")[1] ?? ""));
    expect(decoded.ok).toBe(true);
    expect(JSON.stringify(decoded)).not.toContain(SECRET);
    expect(JSON.stringify(decoded)).toContain("private");

    // A fresh context: no localStorage, nothing connected before the page loads.
    const context = await browser.newContext({ baseURL });
    const fresh = await context.newPage();
    const toolCalls: string[] = [];
    observePageRequests(fresh, (request) => {
      if (request.method === "POST" && request.body.includes('"tools/call"')) toolCalls.push(request.url);
    });
    const recipient = new PlaygroundPage(fresh);
    await fresh.goto(link);
    const opened = fresh.getByRole("region", { name: "Shared playground" });
    await expect(opened).toBeVisible();
    await opened.getByRole("button", { name: "Details" }).click();
    await expect(opened).toContainText("private");
    await expect(recipient.code).toContainText("shipping.list_carriers");
    await expect(opened).toContainText("with its Inputs");
    await expect(recipient.editor.getByRole("button", { name: /^Inputs/ })).toContainText("1");
    await recipient.editor.getByRole("button", { name: /^Inputs/ }).click();
    await expect(recipient.editor.getByRole("textbox", { name: "Inputs JSON" })).toHaveValue(/"maxCarriers": 3/);
    await expect(recipient.status).toHaveText("idle");
    await expect(fresh.getByRole("region", { name: "Chat" }).getByRole("log", { name: "Conversation" })).toContainText("Which tools can you reach from here?");
    await new ServersPanel(fresh).expectConnected("shipping");
    expect(toolCalls).toEqual([]);

    await recipient.runButton.click();
    await expect(recipient.status).toHaveText("ok");
    expect(await recipient.valueJson()).toEqual(["postal", "parcelnet", "swiftair"]);
    expect(toolCalls.length).toBe(1);
    await context.close();
  });

  test("a share carries the run in view and this conversation's runs; an eval's runs only when ticked, and the dialog says which", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping");
    await playground.setCode("return (await shipping.list_carriers()).carriers.length;");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    // An eval runs afterwards: its runs are newer in the history than the one in view.
    await page.getByRole("button", { name: "Evals" }).click();
    const evals = page.getByRole("dialog", { name: "Evals" });
    await evals.getByText("Paste a suite (JSON or YAML)").click();
    const suite = {
      name: "one",
      defaults: { modes: ["code"] },
      cases: [{ name: "carriers", prompt: "Which carrier is cheapest to ship 2 kg from DE to US within 5 days?", servers: ["shipping"] }],
    };
    await evals.getByRole("textbox", { name: "Suite text" }).fill(JSON.stringify(suite));
    await evals.getByRole("button", { name: "Load", exact: true }).click();
    await evals.getByRole("button", { name: "Run suite" }).click();
    await expect(evals.getByRole("status").filter({ hasText: /of 1 runs/ })).toHaveText("1 of 1 runs", { timeout: 30_000 });
    await evals.getByRole("button", { name: "Close" }).first().click();

    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share this playground" });
    const offered = dialog.getByRole("list", { name: "Runs to share" }).getByRole("checkbox");
    await expect(offered).toHaveCount(2);
    const fromEval = dialog.getByRole("checkbox", { name: /from an eval/ });
    const inView = dialog.getByRole("checkbox", { name: /from the editor \(in view\)/ });
    await expect(fromEval).not.toBeChecked();
    await expect(inView).toBeChecked();
    const runsIn = async () => {
      const link = await dialog.getByLabel("Share link").inputValue();
      const decoded = await decodeShareState(decodeURIComponent(link.split("#share=")[1] ?? ""));
      return decoded.ok ? (decoded.state.runs ?? []).length : -1;
    };
    await expect.poll(runsIn).toBe(1);
    await expect(dialog).toContainText("1 recorded run");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: "test-results/share-runs-1280.png" });
    await fromEval.check();
    await expect.poll(runsIn).toBe(2);
    await expect(dialog).toContainText("2 recorded runs");
  });

  test("a shared run replays offline: the same value, and no request reaches any MCP server", async ({ page, browser, baseURL }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping", "news");
    await playground.setCode(
      'const [c, n] = await Promise.all([shipping.list_carriers(), news.web_search({ query: "ports" })]);\nreturn { carriers: c.carriers.length, stories: n.total };',
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    const original = await playground.valueJson();
    await page.getByRole("button", { name: "Share" }).click();
    const link = await page.getByLabel("Share link").inputValue();
    const decoded = await decodeShareState(decodeURIComponent(link.split("#share=")[1] ?? ""));
    expect(decoded.ok && decoded.state.runs?.length).toBe(1);

    const context = await browser.newContext({ baseURL });
    const fresh = await context.newPage();
    const mcpRequests: string[] = [];
    observePageRequests(fresh, (request) => {
      if (request.url.includes("/api/demo-mcp/") && request.body.includes('"tools/call"')) mcpRequests.push(request.url);
    });
    const recipient = new PlaygroundPage(fresh);
    await fresh.goto(link);
    const banner = fresh.getByRole("region", { name: "Shared playground" });
    // One line until asked: it says what the link holds.
    await expect(banner).toContainText("1 recorded run");
    await fresh.setViewportSize({ width: 1280, height: 720 });
    await fresh.screenshot({ path: "test-results/share-banner-1280.png" });
    await banner.getByRole("button", { name: "Details" }).click();
    // The run is labelled by its code's first line and the value it returned.
    const runs = banner.getByRole("group", { name: "Recorded runs" });
    await expect(runs).toContainText("const [c, n] = await Promise.all");
    await expect(runs).toContainText('→ {"carriers":5');
    await banner.getByRole("button", { name: "Replay run 1" }).click();
    await expect(recipient.code).toContainText("news.web_search");
    await expect(recipient.status).toHaveText("idle");
    await expect(fresh.getByRole("status", { name: "Replay armed" })).toContainText("The next Run answers from the recording");
    await fresh.screenshot({ path: "test-results/share-replay-armed-1280.png" });
    await recipient.runButton.click();
    await expect(recipient.status).toHaveText("ok");
    expect(await recipient.valueJson()).toEqual(original);
    expect(mcpRequests).toEqual([]);
    // The replay answered that run only.
    await expect(fresh.getByRole("status", { name: "Replay armed" })).toHaveCount(0);

    // Dismiss hides the banner and keeps what the link brought: its run is in the Runs tab, the banner comes back from the header.
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(banner).toHaveCount(0);
    const timeline = new TimelinePanel(fresh);
    await timeline.open();
    await timeline.openView("Runs");
    await expect(timeline.runs.getByRole("row")).toHaveCount(3);
    await fresh.getByRole("button", { name: "Shared link" }).click();
    await expect(banner).toBeVisible();
    await context.close();
  });

  test("a playground too large for a link becomes a short link this app stores, which restores it in a fresh browser", async ({ page, browser, baseURL }) => {
    // Random text hardly compresses: 60 000 characters of it make a share over a link's 32 KB.
    let seed = 7;
    const noise = Array.from({ length: 60_000 }, () => String.fromCharCode(35 + ((seed = (seed * 48271) % 2147483647) % 57))).join("");
    const code = `return ${JSON.stringify(noise)}.length;`;
    await page.addInitScript((text) => localStorage.setItem("cmp:editor-code:v1", text), code);
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share this playground" });
    await expect(dialog).toContainText("Too large for a link");
    await expect(dialog.getByLabel("Share link")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Create short link" }).click();
    const shortLink = await dialog.getByLabel("Short link").inputValue();
    expect(shortLink).toMatch(/\/s\/[A-Za-z0-9_-]+$/);

    const context = await browser.newContext({ baseURL });
    const fresh = await context.newPage();
    const recipient = new PlaygroundPage(fresh);
    await fresh.goto(shortLink);
    await expect(fresh.getByRole("region", { name: "Shared playground" })).toBeVisible();
    await expect(recipient.status).toHaveText("idle");
    await recipient.openEditor();
    await recipient.runWithShortcut();
    await expect(recipient.status).toHaveText("ok");
    expect(await recipient.valueJson()).toBe(60_000);
    await context.close();
  });

  test("a corrupt link shows a clear error and the playground still works", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await page.goto("/#share=v1.this-is-not-a-share");
    await expect(page.getByRole("region", { name: "Shared playground" }).getByRole("alert")).toBeVisible();
    await playground.openEditor();
    await playground.setCode("return 2 * 21");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
  });
});
