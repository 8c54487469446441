import { expect, type Locator, type Page } from "@playwright/test";

/** Page object for the Servers panel (servers list, tools, test calls). */
export class ServersPanel {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole("region", { name: "Servers" });
  }

  status(name: string): Locator {
    return this.page.getByTestId(`server-status-${name}`);
  }

  async expectConnected(...names: string[]): Promise<void> {
    for (const name of names) await expect(this.status(name)).toHaveText("connected", { timeout: 20_000 });
  }

  async openServersTab(): Promise<void> {
    await this.root.getByRole("tab", { name: /^Servers/ }).click();
  }

  async openToolsTab(): Promise<void> {
    await this.root.getByRole("tab", { name: /^Tools/ }).click();
  }

  async addServer(name: string, url: string, headers?: string): Promise<void> {
    await this.openServersTab();
    await this.root.getByRole("button", { name: "Add server" }).click();
    const form = this.root.getByRole("form", { name: "Add server" });
    await form.getByLabel("Name (the code namespace)").fill(name);
    await form.getByLabel("URL").fill(url);
    if (headers) await form.getByLabel(/^Headers/).fill(headers);
    await form.getByRole("button", { name: "Add" }).click();
  }

  /** Adds a local (stdio) server: a command and its arguments, one per line. */
  async addStdioServer(name: string, command: string, args: readonly string[]): Promise<void> {
    await this.openServersTab();
    await this.root.getByRole("button", { name: "Add server" }).click();
    const form = this.root.getByRole("form", { name: "Add server" });
    await form.getByLabel("Name (the code namespace)").fill(name);
    await form.getByLabel("Transport").selectOption("stdio");
    await form.getByRole("textbox", { name: "Command" }).fill(command);
    await form.getByLabel("Arguments (one per line)").fill(args.join("\n"));
    await form.getByRole("button", { name: "Add" }).click();
  }

  /** Imports an mcp.json as a person does and starts its stdio servers (imported switched off). */
  async importConfig(mcpServers: Record<string, unknown>): Promise<void> {
    await this.openServersTab();
    await this.root
      .getByRole("button", { name: /Import/ })
      .first()
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Import and export servers" });
    await dialog.getByRole("textbox", { name: "Config to import" }).fill(JSON.stringify({ mcpServers }));
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    for (const [name, entry] of Object.entries(mcpServers)) {
      if ((entry as { command?: string }).command) await dialog.getByRole("button", { name: `Start ${name}` }).click();
    }
    await dialog.getByRole("button", { name: "Close" }).click();
  }

  async openTool(server: string, tool: string): Promise<void> {
    await this.openToolsTab();
    await this.root
      .getByRole("region", { name: `Tools of ${server}` })
      .getByRole("button", { name: new RegExp(`^${tool}`) })
      .click();
  }
}
