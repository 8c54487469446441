import { expect, test, type Page } from "./fixtures";
import type { E2EModelId } from "../fixtures/model/e2e-model-scripts";
import { ChatPanel } from "./pages/chat-panel";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

/**
 * The chat against a real OpenAI-compatible server over a real socket: the scripted server
 * (tests/fixtures/model/scripted-server-cli.ts, started by playwright.config.ts on
 * E2E_MODEL_PORT) answers from the tool results the browser sends back, so every answer
 * asserted here exists only if the whole loop ran: route → provider SDK → model → browser →
 * sandbox → MCP servers → browser → route → model.
 */

const modelPort = process.env.E2E_MODEL_PORT;

async function setUp(page: Page, model: E2EModelId): Promise<{ playground: PlaygroundPage; chat: ChatPanel }> {
  // Fail rather than skip: a suite that quietly skips the real-model path proves nothing.
  if (!modelPort) throw new Error("E2E_MODEL_PORT is not set: add the scripted model server to playwright.config.ts");
  const playground = new PlaygroundPage(page);
  await playground.goto();
  // store has a destructive tool, which turns step mode on by default.
  await new ServersPanel(page).expectConnected("shipping", "news", "store");
  const chat = new ChatPanel(page);
  await chat.useCompatibleEndpoint({ baseURL: `http://127.0.0.1:${modelPort}/v1`, model, apiKey: "sk-e2e-not-a-real-key" });
  return { playground, chat };
}

test.describe("chat with a scripted OpenAI-compatible model", () => {
  test("full loop: the model's code runs against two servers and the answer quotes the real result", async ({ page }) => {
    const { playground, chat } = await setUp(page, "scripted-full-loop");
    await chat.setStepMode(false);
    await expect(chat.root.getByText("step mode", { exact: true })).toBeHidden();

    await chat.send("How many climate stories are there, and how many carriers?");

    // The model's program lands in Monaco and runs without waiting for anyone.
    await expect(playground.code).toContainText("firstStory");
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    await expect(chat.waiting).toBeHidden();
    const value = (await playground.valueJson()) as { carriers: number; climate: number; firstStory: string | null };
    expect(value.carriers).toBeGreaterThan(0);
    expect(value.climate).toBeGreaterThan(0);
    expect(value.firstStory).toEqual(expect.any(String));

    // Only a model that was sent the run's output can say this.
    await expect(chat.conversation).toContainText(
      `From the sandbox run: ${value.climate} climate stories and ${value.carriers} carriers; top story: “${value.firstStory}”.`,
      {
        timeout: 20_000,
      },
    );
    await expect(chat.toolCalls).toHaveCount(1);
    await expect(chat.toolCalls.first()).toContainText("execute_code");
    await expect(chat.toolCalls.first()).toContainText("ok");

    await page.getByRole("tab", { name: "Timeline" }).click();
    const rows = page.getByTestId("timeline-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("shipping.list_carriers");
    await expect(rows.nth(1)).toContainText("news.web_search");
  });

  test("step mode pauses each program; the first run's error reaches the model, which retries and answers", async ({ page }) => {
    const { playground, chat } = await setUp(page, "scripted-retry");
    await chat.setStepMode(true);
    await chat.send("List the carriers.");

    // Paused: the code waits in the editor and nothing has run.
    await expect(chat.waiting).toBeVisible({ timeout: 20_000 });
    await expect(playground.code).toContainText("first try fails");
    await expect(playground.status).toHaveText("waits for Run");
    await expect(chat.toolCalls.first()).toContainText("waiting for you");
    await chat.waiting.getByRole("button", { name: "Run" }).click();

    await expect(playground.status).toHaveText("runtime", { timeout: 20_000 });
    await expect(playground.error).toContainText("first try fails");
    await expect(chat.toolCalls.first()).toContainText("runtime error");
    // The model names the error kind it was sent, then sends a second program.
    await expect(chat.conversation).toContainText("That failed with a runtime error; trying again.", { timeout: 20_000 });

    await expect(chat.waiting).toBeVisible({ timeout: 20_000 });
    await expect(playground.code).toContainText("carriers.length");
    await chat.waiting.getByRole("button", { name: "Run" }).click();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const value = (await playground.valueJson()) as { carriers: number; first: string };

    await expect(chat.conversation).toContainText(`Second try worked: ${value.carriers} carriers, first listed ${value.first}.`, { timeout: 20_000 });
    await expect(chat.toolCalls).toHaveCount(2);
    await expect(chat.toolCalls.nth(1)).toContainText("ok");
  });

  test("a model that never stops calling tools is stopped at max steps, and the conversation is kept", async ({ page }) => {
    const { playground, chat } = await setUp(page, "scripted-max-steps");
    await chat.setStepMode(false);
    await chat.setMaxSteps(3);
    await chat.send("Keep going.");

    const notice = chat.conversation.getByRole("status").filter({ hasText: "max-steps limit" });
    await expect(notice).toHaveText(
      "Stopped after 3 model steps (the max-steps limit): the model was still calling tools. Raise the limit in the settings, or send a message to let it go on.",
      { timeout: 30_000 },
    );
    await expect(chat.toolCalls).toHaveCount(3);
    for (const card of await chat.toolCalls.all()) await expect(card).toContainText("ok");
    await expect(playground.code).toContainText("scripted step 3");
    expect(await playground.valueJson()).toBe("scripted step 3");
    await expect(chat.root.getByRole("button", { name: "Stop" })).toBeHidden();
    await expect(chat.root.getByRole("alert")).toHaveCount(0);

    // Sending again goes on from the kept conversation: the first turn stays, a second one stops the same way.
    await chat.send("Go on.");
    await expect(notice).toHaveCount(2, { timeout: 30_000 });
    await expect(chat.toolCalls).toHaveCount(6);
    await expect(chat.conversation).toContainText("Keep going.");
    await expect(chat.conversation).toContainText("Go on.");
  });

  test("search mode: the model calls search_tools, then execute_code with what it found", async ({ page }) => {
    const { playground, chat } = await setUp(page, "scripted-search");
    await chat.setStepMode(false);
    await chat.setSearchMode(true);
    await chat.send("Which carriers are there?");

    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const value = (await playground.valueJson()) as { carriers: number; names: string[] };
    await expect(chat.conversation).toContainText(`Found through search: ${value.carriers} carriers, starting with ${value.names[0]}.`, { timeout: 20_000 });

    await expect(chat.toolCalls).toHaveCount(2);
    const search = await chat.openToolCall(0);
    await expect(search.locator("summary")).toContainText("search_tools");
    await expect(search).toContainText("Query: list carriers (limit 3)");
    await expect(search).toContainText("list_carriers(");
    await expect(chat.toolCalls.nth(1).locator("summary")).toContainText("execute_code");
    await expect(chat.toolCalls.nth(1)).toContainText("ok");
    // The settings and the request inspector say which form the request used, and why.
    await expect(page.getByTestId("discovery-why")).toHaveText(/^Tool search is pinned on \(the declarations take about [\d\s]+ tokens\)\.$/);

    await page.getByRole("tab", { name: "Timeline" }).click();
    await expect(page.getByTestId("timeline-row")).toHaveCount(1);
    await expect(page.getByTestId("timeline-row")).toContainText("shipping.list_carriers");
  });
});

test.describe("compare against a scripted OpenAI-compatible model", () => {
  test("a code lane and a classic lane with the provider's own token figures; both answers quote the same real numbers", async ({ page }) => {
    await setUp(page, "scripted-compare");
    await page.getByRole("button", { name: "Compare modes" }).click();
    const dialog = page.getByRole("dialog", { name: /Compare code mode and classic/ });
    await expect(dialog.getByRole("combobox", { name: "Lane 1 provider" })).toHaveValue("openai-compatible");
    await expect(dialog.getByRole("textbox", { name: "Lane 2 model" })).toHaveValue("scripted-compare");
    await dialog.getByRole("textbox", { name: "Prompt" }).fill("How many climate stories and carriers?");
    await dialog.getByRole("button", { name: "Run compare" }).click();
    await expect(dialog.getByRole("button", { name: "Run compare" })).toBeVisible({ timeout: 45_000 });

    // Two requests each; the scripted server reports 123 input tokens per request (not an estimate).
    await expect(dialog.getByTestId("compare-requests-1")).toContainText("2");
    await expect(dialog.getByTestId("compare-requests-2")).toContainText("2");
    await expect(dialog.getByTestId("compare-inputTokens-1")).toContainText("246");
    await expect(dialog.getByRole("rowheader", { name: "Input tokens", exact: true })).toBeVisible();
    await expect(dialog.getByTestId("compare-toolCalls-1")).toContainText("2");
    await expect(dialog.getByTestId("compare-toolCalls-2")).toContainText("2");
    const [code, classic] = [dialog.locator("details").nth(0), dialog.locator("details").nth(1)];
    await expect(code).toContainText(/\d+ climate stories and \d+ carriers\./);
    const codeAnswer = (await code.textContent())?.match(/\d+ climate stories and \d+ carriers\./)?.[0];
    await expect(classic).toContainText(codeAnswer ?? "??");
  });
});
