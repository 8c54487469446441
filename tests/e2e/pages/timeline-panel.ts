import { expect, type Locator, type Page } from "@playwright/test";
import { observePageRequests, type PageRequest } from "./app-requests";

/** A box on screen, in CSS pixels, as Playwright gives it. */
type Box = NonNullable<Awaited<ReturnType<Locator["boundingBox"]>>>;

/** A call's place on the time axis, read from its bar as the person sees it (ms from the run's start). */
export interface BarTiming {
  startMs: number;
  endMs: number;
}

/**
 * Page object for the Timeline tab of the Output panel: the waterfall (Calls), the session's
 * runs (Runs) and mocks / approvals (Tools). Accessible selectors first; `timeline-row` is the
 * one test id, because a waterfall row is a list item whose name would be its whole text.
 */
export class TimelinePanel {
  readonly output: Locator;
  readonly views: Locator;
  /** The waterfall's scroller; its name says how many calls are shown of how many. */
  readonly list: Locator;
  readonly rows: Locator;
  readonly summary: Locator;
  readonly search: Locator;
  readonly toolFilter: Locator;
  readonly statusFilter: Locator;
  readonly runs: Locator;
  /** "Next run replays …" */
  readonly replayBanner: Locator;
  readonly divergence: Locator;

  constructor(readonly page: Page) {
    this.output = page.getByRole("region", { name: "Output" });
    this.views = this.output.getByRole("tablist", { name: "Timeline views" });
    this.list = this.output.getByRole("list", { name: /^Tool calls, \d+ of \d+$/ });
    this.rows = this.output.getByTestId("timeline-row");
    this.summary = this.output.getByLabel("Timeline summary");
    const filters = this.output.getByRole("search", { name: "Filter tool calls" });
    this.search = filters.getByRole("searchbox", { name: "Search arguments, results and errors" });
    this.toolFilter = filters.getByRole("combobox", { name: "Tool" });
    this.statusFilter = filters.getByRole("combobox", { name: "Status" });
    this.runs = this.output.getByRole("table", { name: "Runs of this session" });
    this.replayBanner = this.output.getByRole("status").filter({ hasText: "Next run replays" });
    this.divergence = this.output.getByRole("alert").filter({ hasText: "Replay diverged" });
  }

  /** Opens the Output panel's Timeline tab (the Calls view of the live run). */
  async open(): Promise<void> {
    const tab = this.output.getByRole("tablist", { name: "Output views" }).getByRole("tab", { name: "Timeline" });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
  }

  /** Back to the Output tab (the run's value and error live there). */
  async showOutput(): Promise<void> {
    const tab = this.output.getByRole("tablist", { name: "Output views" }).getByRole("tab", { name: "Output", exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
  }

  async openView(name: "Calls" | "Runs" | "Mocks & approvals"): Promise<void> {
    const tab = this.views.getByRole("tab", { name: new RegExp(`^${name}`) });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
  }

  /** The call's label button on its row ("lab.echo, call 3, ok, mock"): found by callId. */
  call(callId: number): Locator {
    return this.output.getByRole("button", { name: callName(callId) });
  }

  /** The row of a call, by callId. */
  row(callId: number): Locator {
    // `has` is matched inside each row, so it starts from the page rather than from the Output region.
    return this.rows.filter({ has: this.page.getByRole("button", { name: callName(callId) }) });
  }

  /** A row's bar on the time axis (its title reads "lab.sleep: ok, 2.1 ms → 405 ms"). */
  bar(row: Locator): Locator {
    return row.getByTitle(/: \w+, .+ → .+$/);
  }

  /** A row's bar and its track (the bar's parent) as laid out on screen. */
  async barAndTrack(row: Locator): Promise<{ bar: Box; track: Box }> {
    const bar = this.bar(row);
    const [barBox, trackBox] = await Promise.all([bar.boundingBox(), bar.locator("..").boundingBox()]);
    if (!barBox || !trackBox) throw new Error("The bar or its track is not laid out");
    return { bar: barBox, track: trackBox };
  }

  /** Start and end of a finished call, from its bar's title (the recorded times, not the page's clock). */
  async barTiming(row: Locator): Promise<BarTiming> {
    const title = (await this.bar(row).getAttribute("title")) ?? "";
    const match = /, (.+) → (.+)$/.exec(title);
    if (!match?.[1] || !match[2]) throw new Error(`Unexpected bar title: ${title}`);
    return { startMs: parseDuration(match[1]), endMs: parseDuration(match[2]) };
  }

  /** "Tool calls, 10 of 1000" → { shown: 10, total: 1000 }. */
  async shownOfTotal(): Promise<{ shown: number; total: number }> {
    const label = (await this.list.getAttribute("aria-label")) ?? "";
    const match = /^Tool calls, (\d+) of (\d+)$/.exec(label);
    if (!match) throw new Error(`Unexpected waterfall label: ${label}`);
    return { shown: Number(match[1]), total: Number(match[2]) };
  }

  /** The summary's "span": first call start to last call end, as recorded. */
  async spanMs(): Promise<number> {
    const match = /span ([\d.]+ m?s)/.exec((await this.summary.textContent()) ?? "");
    if (!match?.[1]) throw new Error("No span in the timeline summary");
    return parseDuration(match[1]);
  }

  async expectShown(shown: number, total: number): Promise<void> {
    await expect(this.list).toHaveAccessibleName(`Tool calls, ${shown} of ${total}`);
  }

  /** Scrolls the waterfall to its last row, as a mouse wheel or scrollbar drag would. */
  async scrollToEnd(): Promise<void> {
    await this.list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  }

  /** The approve / deny prompt on a waiting call's row. */
  approvalPrompt(label: string): Locator {
    return this.output.getByRole("group", { name: `Approve ${label}?` });
  }

  /** Runs tab: chooses to replay the newest run (the history lists runs newest first). */
  async replayNewestRun(): Promise<void> {
    await this.openView("Runs");
    await this.runs
      .getByRole("button", { name: /^Replay / })
      .first()
      .click();
    await expect(this.replayBanner).toBeVisible();
  }

  /** Runs tab: loads a run file through "Import run file…", as a person picking it would. */
  async importRunFile(name: string, text: string): Promise<void> {
    await this.openView("Runs");
    await this.output.getByLabel("Import run file…").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  }

  /** Runs tab: shows a recorded run in the Calls view. */
  async viewRun(id: string): Promise<void> {
    await this.openView("Runs");
    await this.runs.getByRole("button", { name: `View ${id}`, exact: true }).click();
    await expect(this.output.getByRole("status").filter({ hasText: "Viewing the recorded run" })).toBeVisible();
  }

  async setOnMismatch(mode: "stop" | "live"): Promise<void> {
    await this.replayBanner.getByRole("combobox", { name: "On mismatch" }).selectOption(mode);
  }

  /** Tools tab: gives `server.fn` a fixed JSON result. */
  async mockValue(server: string, fn: string, value: unknown): Promise<void> {
    await this.openView("Mocks & approvals");
    const label = `${server}.${fn}`;
    const item = this.output
      .getByRole("region", { name: `Tools of ${server}` })
      .getByRole("listitem")
      .filter({ has: this.page.getByText(label, { exact: true }) });
    await item.getByRole("button", { name: "Mock…" }).click();
    const editor = item.getByRole("group", { name: `Mock for ${label}` });
    await editor.getByRole("radio", { name: "fixed result (JSON)" }).check();
    await editor.getByRole("textbox", { name: `Mock value for ${label}` }).fill(JSON.stringify(value));
    await editor.getByRole("button", { name: "Save mock" }).click();
    await expect(item.getByText("mocked: value")).toBeVisible();
  }
}

function callName(callId: number): RegExp {
  return new RegExp(`, call ${callId}, `);
}

/** The inverse of lib/timeline/format's formatDuration for "0.4 ms", "250 ms" and "1.25 s". */
export function parseDuration(text: string): number {
  const match = /^([\d.]+) (ms|s)$/.exec(text.trim());
  if (!match?.[1]) throw new Error(`Not a duration: ${text}`);
  return Number(match[1]) * (match[2] === "s" ? 1_000 : 1);
}

/** A tools/call request the page sent to a demo MCP server, with the tool it called. */
export interface ToolCallRequest {
  server: string;
  tool: string;
}

/**
 * Records every tools/call POST the page sends to the same-origin demo servers
 * (/api/demo-mcp/<name>), over HTTP or its channel. Attach before the page loads; read `calls` or `since(mark)`.
 */
export class DemoToolCalls {
  readonly calls: ToolCallRequest[] = [];

  constructor(page: Page) {
    observePageRequests(page, (request) => this.observe(request));
  }

  /** A position in the log, to read the calls made after it. */
  mark(): number {
    return this.calls.length;
  }

  since(mark: number): ToolCallRequest[] {
    return this.calls.slice(mark);
  }

  private observe(request: PageRequest): void {
    if (request.method !== "POST") return;
    const match = /\/api\/demo-mcp\/([^/?#]+)/.exec(request.url);
    if (!match?.[1]) return;
    const body = request.body;
    if (!body.includes("tools/call")) return;
    // A JSON-RPC message or a batch; the tool's name is params.name.
    let tools: string[] = [];
    try {
      const parsed = JSON.parse(body) as unknown;
      const messages = Array.isArray(parsed) ? parsed : [parsed];
      tools = messages.flatMap((m) => {
        const message = m as { method?: unknown; params?: { name?: unknown } };
        return message.method === "tools/call" && typeof message.params?.name === "string" ? [message.params.name] : [];
      });
    } catch {
      tools = ["<unparsed>"];
    }
    for (const tool of tools) this.calls.push({ server: match[1], tool });
  }
}
