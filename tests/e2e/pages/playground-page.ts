import { expect, type Locator, type Page } from "@playwright/test";

/** Page object for the playground: accessible selectors first (role, label). */
export class PlaygroundPage {
  readonly editor: Locator;
  readonly runButton: Locator;
  readonly stopButton: Locator;
  readonly status: Locator;
  readonly value: Locator;
  readonly error: Locator;
  /** The code as the editor shows it: Monaco's lines, or the text it shows until Monaco loads. */
  readonly code: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByRole("region", { name: "Editor" });
    // Scoped to the editor: the chat has its own Stop and example prompts that start with "Run".
    this.runButton = this.editor.getByRole("button", { name: /^Run\s*Ctrl\+Enter$/ });
    this.stopButton = this.editor.getByRole("button", { name: "Stop" });
    this.status = page.getByRole("status", { name: "Run status" });
    this.value = page.getByTestId("run-value");
    this.error = page.getByTestId("run-error");
    this.code = this.editor.locator(".monaco-editor .view-lines, pre[aria-label^='Code (the editor loads']");
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
    await this.openEditor();
  }

  /** Points at the code, as a person coming to it does: Monaco loads then (until then the code shows as text). */
  async openEditor(): Promise<void> {
    const monaco = this.editor.locator(".monaco-editor .view-lines");
    if (!(await monaco.isVisible())) await this.editor.locator(".panel-body").hover();
    await expect(monaco).toBeVisible();
  }

  /**
   * Replaces the editor's text by pasting it, as a person would. Typing (or insertText of
   * several lines) goes through Monaco's auto-closing and auto-indent and can change the code.
   */
  async setCode(code: string): Promise<void> {
    await this.page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await this.page.evaluate((text) => navigator.clipboard.writeText(text), code);
    await this.openEditor();
    await this.editor.locator(".monaco-editor .view-lines").click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("ControlOrMeta+V");
    await expect(this.editor.locator(".view-lines")).toContainText(code.split("\n")[0]?.slice(0, 20) ?? "");
  }

  async runWithShortcut(): Promise<void> {
    await this.openEditor();
    await this.editor.locator(".monaco-editor .view-lines").click();
    await this.page.keyboard.press("ControlOrMeta+Enter");
  }

  /** The parsed JSON value of the last ok run. */
  /** The value's JSON text (objects and arrays show as a tree first; this switches to Text). */
  async valueJson(): Promise<unknown> {
    await this.showValueAsText();
    return JSON.parse((await this.value.textContent()) ?? "null") as unknown;
  }

  async showValueAsText(): Promise<void> {
    const text = this.page.getByRole("group", { name: "Show the value as" }).getByRole("button", { name: "Text" });
    if ((await text.count()) > 0 && (await text.getAttribute("aria-pressed")) !== "true") await text.click();
  }
}
