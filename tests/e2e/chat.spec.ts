import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";

test.describe("chat in code mode with the offline demo model", () => {
  test.beforeEach(async ({ page }) => {
    await new PlaygroundPage(page).goto();
    await new ServersPanel(page).expectConnected("shipping", "news", "store", "lab");
  });

  test("an example prompt: the code appears in Monaco, step mode pauses, Run executes it, calls land on the timeline, the answer uses the result", async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    const chat = page.getByRole("region", { name: "Chat" });
    await expect(chat.getByTestId("chat-model")).toContainText(/demo/i);
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();

    // A destructive tool (store.place_order) is connected, so step mode is on: the code waits in the editor.
    const waiting = page.getByRole("alert", { name: "Model code waiting" });
    await expect(waiting).toBeVisible({ timeout: 20_000 });
    await expect(playground.editor.locator(".view-lines")).toContainText("shipping.list_carriers");
    await expect(playground.status).toHaveText("idle");
    await waiting.getByRole("button", { name: "Run" }).click();

    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const conversation = chat.getByRole("log", { name: "Conversation" });
    const value = (await playground.valueJson()) as { cheapest: { carrier: string } | null };
    expect(value.cheapest).not.toBeNull();
    // The final answer is built from the real run's value.
    await expect(conversation).toContainText(value.cheapest?.carrier ?? "??", { timeout: 20_000 });

    await page.getByRole("tab", { name: "Timeline" }).click();
    await expect(page.getByTestId("timeline-row").first()).toContainText("shipping.list_carriers");
    expect(await page.getByTestId("timeline-row").count()).toBeGreaterThan(5);

    // The request inspector shows what the model was sent: the system prompt with the declarations.
    await conversation
      .getByText(/Inspect \d+ model call/)
      .first()
      .click();
    await conversation.locator("summary", { hasText: "Step 1" }).first().click();
    await conversation
      .locator("summary", { hasText: /^System prompt \(/ })
      .first()
      .click();
    await expect(conversation.getByText(/declare namespace shipping/).first()).toBeVisible();
  });

  test("the person edits the model's code, runs it, and sends that result to the model", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();
    const waiting = page.getByRole("alert", { name: "Model code waiting" });
    await expect(waiting).toBeVisible({ timeout: 20_000 });
    await waiting.getByRole("button", { name: "Run" }).click();
    await expect(playground.status).toHaveText("ok", { timeout: 20_000 });
    const conversation = chat.getByRole("log", { name: "Conversation" });
    await expect(chat.getByRole("textbox", { name: "Message" })).toBeEnabled({ timeout: 20_000 });

    await playground.setCode("const { carriers } = await shipping.list_carriers();\nreturn { edited: true, count: carriers.length };");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    await page.getByRole("button", { name: "Send this result to the model" }).click();
    await expect(conversation).toContainText("I edited the code and ran it myself");
    await expect(conversation).toContainText('"edited": true');
    await expect(page.getByRole("button", { name: "Send this result to the model" })).toBeHidden();
  });

  test("Skip answers the model without running anything", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();
    const waiting = page.getByRole("alert", { name: "Model code waiting" });
    await expect(waiting).toBeVisible({ timeout: 20_000 });
    await waiting.getByRole("button", { name: "Skip" }).click();
    await expect(waiting).toBeHidden();
    await expect(chat.getByRole("log", { name: "Conversation" })).toContainText(/skip|did not run|not run/i, { timeout: 20_000 });
    await expect(playground.status).toHaveText("idle");
  });

  test("any other prompt gets an explanation of how to connect a real model", async ({ page }) => {
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("textbox", { name: "Message" }).fill("What is the weather in Paris?");
    await chat.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(chat.getByRole("log", { name: "Conversation" })).toContainText(/API key|OPENAI_API_KEY|provider/i, { timeout: 20_000 });
  });
});

test.describe("classic tool calling beside code mode", () => {
  test("the Classic switch offers every tool as a tool: the demo model calls them a round at a time, each round on the timeline, and the answer uses the results", async ({
    page,
  }) => {
    await new PlaygroundPage(page).goto();
    await new ServersPanel(page).expectConnected("shipping", "news", "store", "lab");
    const chat = page.getByRole("region", { name: "Chat" });
    await chat.getByRole("radio", { name: "Classic" }).click();
    await expect(chat.getByRole("radio", { name: "Classic" })).toHaveAttribute("aria-checked", "true");
    await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();

    const conversation = chat.getByRole("log", { name: "Conversation" });
    // Labelled as scripted, and no program: ordinary tool calls, answered without step mode's pause.
    await expect(conversation).toContainText("Scripted classic session", { timeout: 20_000 });
    await expect(conversation).toContainText("SwiftAir Express", { timeout: 30_000 });
    await expect(conversation.getByTestId("tool-call").filter({ hasText: "shipping__list_carriers" })).toHaveCount(1);
    expect(await conversation.getByTestId("tool-call").filter({ hasText: "shipping__get_quote" }).count()).toBe(5);
    await expect(conversation.getByTestId("tool-call").filter({ hasText: "execute_code" })).toHaveCount(0);
    // Three model calls: round 1, round 2, the answer.
    await expect(conversation.getByText(/Inspect 3 model calls/)).toBeVisible();

    // Both rounds ran through the sandbox's host functions: they are runs on the timeline.
    await page.getByRole("tab", { name: "Timeline" }).click();
    await page.getByRole("tab", { name: /Runs \(2\)/ }).click();
    await expect(page.getByRole("tab", { name: /Runs \(2\)/ })).toBeVisible();

    // The choice survives a reload.
    await page.reload();
    await expect(page.getByRole("region", { name: "Chat" }).getByRole("radio", { name: "Classic" })).toHaveAttribute("aria-checked", "true");
  });
});
