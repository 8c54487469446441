import { expect, type Locator, type Page } from "@playwright/test";

/** An OpenAI-compatible endpoint as the Settings form asks for it. */
export interface CompatibleEndpoint {
  baseURL: string;
  model: string;
  apiKey: string;
}

/** Page object for the chat panel and its Settings form: accessible selectors first (role, label). */
export class ChatPanel {
  readonly root: Locator;
  readonly conversation: Locator;
  readonly settings: Locator;
  readonly messageBox: Locator;
  /** The model's tool calls, inline in the conversation (a <details> card has no role that names it). */
  readonly toolCalls: Locator;
  /** Step mode's banner over the editor. */
  readonly waiting: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole("region", { name: "Chat" });
    this.conversation = this.root.getByRole("log", { name: "Conversation" });
    this.settings = this.root.getByRole("form", { name: "Chat settings" });
    this.messageBox = this.root.getByRole("textbox", { name: "Message" });
    this.toolCalls = this.conversation.getByTestId("tool-call");
    this.waiting = page.getByRole("alert", { name: "Model code waiting" });
  }

  async openSettings(): Promise<void> {
    const button = this.root.getByRole("button", { name: "Settings" });
    if ((await button.getAttribute("aria-pressed")) !== "true") await button.click();
    await expect(this.settings).toBeVisible();
  }

  /** Picks "OpenAI-compatible endpoint" and fills its base URL, model id and key, as a person would. */
  async useCompatibleEndpoint({ baseURL, model, apiKey }: CompatibleEndpoint): Promise<void> {
    await this.openSettings();
    await this.settings.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
    await this.settings.getByLabel("Model id", { exact: true }).fill(model);
    await this.settings.getByLabel("Base URL", { exact: true }).fill(baseURL);
    await this.settings.getByLabel(/^API key/).fill(apiKey);
    await expect(this.root.getByTestId("chat-model")).toHaveText(`OpenAI-compatible endpoint · ${model}`);
  }

  async setStepMode(on: boolean): Promise<void> {
    await this.openSettings();
    await this.settings.getByRole("checkbox", { name: /^Step mode/ }).setChecked(on);
  }

  /** Pins tool search on, or leaves the form to the budget (automatic). */
  async setSearchMode(on: boolean): Promise<void> {
    await this.openSettings();
    await this.settings.getByLabel("Tool declarations", { exact: true }).selectOption(on ? "search" : "auto");
  }

  async setMaxSteps(steps: number): Promise<void> {
    await this.openSettings();
    const field = this.settings.getByLabel("Max steps per answer", { exact: true });
    await field.fill(String(steps));
    await expect(field).toHaveValue(String(steps));
  }

  async send(text: string): Promise<void> {
    await this.messageBox.fill(text);
    await this.messageBox.press("Enter");
  }

  /** The n-th tool call card, opened. */
  async openToolCall(index: number): Promise<Locator> {
    const card = this.toolCalls.nth(index);
    if ((await card.getAttribute("open")) === null) await card.locator("summary").click();
    return card;
  }
}
