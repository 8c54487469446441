/**
 * The MCP Apps host's rules without React (lib/mcp-apps/app-host.ts): what an app may call, when
 * its messages and context reach the conversation, which links open, what a flood and a closed
 * view leave behind; and the page's side, a real Playground with the demo servers on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult, ReadResourceResult, Tool } from "@modelcontextprotocol/client";
import { AppHost, MAX_APP_LOG, type AppHostPage, type MountApp, type MountOptions } from "@/lib/mcp-apps/app-host";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { QUOTE_APP_URI } from "@/lib/demo-servers/quote-app";
import { ServerRegistry } from "@/lib/mcp/registry";
import { Playground } from "@/lib/playground/playground";
import { liveWorker } from "../sandbox/ports";
import { until } from "../timeline/helpers";

const APP_TOOL: Tool = { name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://lab/show.html" } } };
const HIDDEN: Tool = { name: "secret", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["model"] } } };
const OPEN: Tool = { name: "open", inputSchema: { type: "object" } };
const HTML: ReadResourceResult = { contents: [{ uri: "ui://lab/show.html", mimeType: "text/html;profile=mcp-app", text: "<p>hi</p>" }] };
const signal = () => new AbortController().signal;
const text = (content: string) => [{ type: "text" as const, text: content }];

/** A page whose every side is recorded; `tools` undefined means the server is not connected. */
function fakePage(options: { tools?: readonly Tool[]; busy?: boolean; read?: () => Promise<ReadResourceResult> } = {}) {
  const sent: string[] = [];
  const contexts: Array<{ key: string; text: string }> = [];
  const opened: string[] = [];
  const calls: Array<{ name: string; args: unknown }> = [];
  const page: AppHostPage = {
    readResource: options.read ?? (() => Promise.resolve(HTML)),
    serverTools: () => options.tools,
    callForApp: (_server, name, args) => {
      calls.push({ name, args });
      return Promise.resolve({ content: text(`${name} done`) });
    },
    chatBusy: () => options.busy ?? false,
    sendToChat: (message) => void sent.push(message),
    putContext: (key, _label, context) => void contexts.push({ key, text: context }),
    openLink: (url) => void opened.push(url),
  };
  return { page, sent, contexts, opened, calls };
}

const host = (page: AppHostPage, conversation = true) => new AppHost({ page, server: "lab", tool: APP_TOOL, input: { a: 1 }, conversation });

describe("AppHost: the rules", () => {
  it("calls only a connected server's tools that apps may see, through the page's host functions", async () => {
    const offline = host(fakePage().page);
    const refused = await offline.frameHost.callTool("open", {}, signal());
    expect(refused).toMatchObject({ isError: true, content: [{ text: "lab is not connected: this app shows a recorded run." }] });

    const { page, calls } = fakePage({ tools: [APP_TOOL, HIDDEN, OPEN] });
    const app = host(page);
    expect(await app.frameHost.callTool("secret", {}, signal())).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("not visible to apps") as unknown }],
    });
    expect(await app.frameHost.callTool("nope", {}, signal())).toMatchObject({ isError: true, content: [{ text: 'The server has no tool "nope".' }] });
    expect(await app.frameHost.callTool("open", { x: 1 }, signal())).toEqual({ content: text("open done") });
    expect(calls).toEqual([{ name: "open", args: { x: 1 } }]);
    expect(app.snapshot().log).toEqual([
      expect.stringMatching(/^refused call secret: /),
      'refused call nope: The server has no tool "nope".',
      'call open {"x":1}',
      "open answered",
    ]);
  });

  it("a message reaches the chat only when it is idle and the person allows it; context likewise, under the app's key", async () => {
    const busy = fakePage({ busy: true });
    const busyApp = host(busy.page);
    expect(await busyApp.frameHost.message?.(text("hello"), signal())).toBe(false);
    expect(busyApp.requests.snapshot()).toEqual([]);
    expect(busyApp.snapshot().log).toEqual(["the conversation is busy, so the app's message was not sent"]);

    const { page, sent, contexts } = fakePage();
    const app = host(page);
    expect(await app.frameHost.message?.(text("   "), signal())).toBe(false);
    const asked = app.frameHost.message?.(text("book it"), signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    expect(app.requests.snapshot()[0]).toMatchObject({ kind: "message", detail: "book it" });
    app.requests.decide(app.requests.snapshot()[0]?.id ?? 0, true);
    expect(await asked).toBe(true);
    expect(sent).toEqual(["book it"]);

    const context = app.frameHost.updateContext?.(text("chosen: DHL"), { price: 12 }, signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    app.requests.decide(app.requests.snapshot()[0]?.id ?? 0, false);
    expect(await context).toBe(false);
    expect(contexts).toEqual([]);
    const again = app.frameHost.updateContext?.(text("chosen: DHL"), undefined, signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    app.requests.decide(app.requests.snapshot()[0]?.id ?? 0, true);
    expect(await again).toBe(true);
    expect(contexts).toEqual([{ key: "lab\u0000show", text: "chosen: DHL" }]);
  });

  it("outside the chat an app has no way to message the conversation", () => {
    const app = host(fakePage().page, false);
    expect(app.frameHost.message).toBeUndefined();
    expect(app.frameHost.updateContext).toBeUndefined();
  });

  it("opens only http and https links, and only those the person allows", async () => {
    const { page, opened } = fakePage();
    const app = host(page);
    for (const url of ["javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "not a url"]) {
      expect(await app.frameHost.openLink(url, signal())).toBe(false);
    }
    expect(app.requests.snapshot()).toEqual([]);
    const denied = app.frameHost.openLink("https://example.com/a b", signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    expect(app.requests.snapshot()[0]).toMatchObject({ kind: "link", detail: "https://example.com/a%20b" });
    app.requests.decide(app.requests.snapshot()[0]?.id ?? 0, false);
    expect(await denied).toBe(false);
    const allowed = app.frameHost.openLink("http://example.com/", signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    app.requests.decide(app.requests.snapshot()[0]?.id ?? 0, true);
    expect(await allowed).toBe(true);
    expect(opened).toEqual(["http://example.com/"]);
    expect(
      app
        .snapshot()
        .log.slice(0, 4)
        .every((line) => line.includes("only http and https links open")),
    ).toBe(true);
  });

  it("a flood keeps the last lines of the log; an app cut off has what it asks denied, at once and from then on", async () => {
    const app = host(fakePage({ tools: [OPEN] }).page);
    for (let i = 0; i < 1_000; i++) app.frameHost.onEvent({ kind: "log", level: "info", text: `line ${i}` });
    expect(app.snapshot().log).toHaveLength(MAX_APP_LOG);
    expect(app.snapshot().log.at(-1)).toBe("log info: line 999");
    const waiting = app.frameHost.openLink("https://example.com/", signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    app.frameHost.onEvent({ kind: "cut-off", reason: "The app sent more than 300 messages in one second, so it was stopped." });
    expect(await waiting).toBe(false);
    expect(app.snapshot().status).toBe("cut off");
    expect(await app.frameHost.message?.(text("more"), signal())).toBe(false);
    expect(app.requests.snapshot()).toEqual([]);
  });

  it("a view that goes away denies what waits and hears nothing more", async () => {
    const app = host(fakePage().page);
    const waiting = app.frameHost.openLink("https://example.com/", signal());
    await until(() => app.requests.snapshot().length === 1, "the question");
    app.dispose();
    expect(await waiting).toBe(false);
    const before = app.snapshot().log.length;
    app.frameHost.onEvent({ kind: "log", level: "info", text: "late" });
    expect(app.snapshot().log).toHaveLength(before);
  });
});

describe("AppHost: loading and mounting", () => {
  it("reads the resource once, and says what went wrong when it cannot", async () => {
    const good = host(fakePage().page);
    await good.load();
    expect(good.snapshot().load).toMatchObject({ state: "ready", app: { uri: "ui://lab/show.html", html: "<p>hi</p>" } });
    const broken = host(fakePage({ read: () => Promise.reject(new Error("lab is not connected.")) }).page);
    await broken.load();
    expect(broken.snapshot().load).toEqual({ state: "failed", message: "Could not read ui://lab/show.html: lab is not connected." });
    const notApp = host(fakePage({ read: () => Promise.resolve({ contents: [{ uri: "ui://lab/show.html", mimeType: "image/png", blob: "AA==" }] }) }).page);
    await notApp.load();
    expect(notApp.snapshot().load).toMatchObject({ state: "failed", message: expect.stringContaining("not an app") as unknown });
  });

  it("reads once however often it is asked, and a view mounted again after dispose (strict mode) gets the app", async () => {
    let reads = 0;
    const app = host(fakePage({ read: () => (reads++, Promise.resolve(HTML)) }).page);
    const first = app.load();
    app.dispose();
    await Promise.all([first, app.load()]);
    expect(reads).toBe(1);
    expect(app.snapshot().load).toMatchObject({ state: "ready" });
    app.frameHost.onEvent({ kind: "log", level: "info", text: "back" });
    expect(app.snapshot().log).toEqual(["log info: back"]);
  });

  it("mounts with the latest result, hands a later one over, closes the frame on unmount, and reports a frame that fails", async () => {
    const app = host(fakePage().page);
    await app.load();
    const mounts: MountOptions[] = [];
    const delivered: CallToolResult[] = [];
    let closed = 0;
    const mountApp: MountApp = (options) => {
      mounts.push(options);
      return Promise.resolve({ deliverResult: (r) => void delivered.push(r), close: () => Promise.resolve(void closed++), frame: {} as HTMLIFrameElement });
    };
    const first: CallToolResult = { content: text("first") };
    app.setResult(first);
    const unmount = app.mount({} as HTMLElement, () => Promise.resolve(mountApp));
    await until(() => mounts.length === 1, "the mount");
    expect(mounts[0]).toMatchObject({ html: "<p>hi</p>", input: { a: 1 }, result: first, theme: "dark" });
    app.frameHost.onEvent({ kind: "initialized", app: "show" });
    expect(app.snapshot().status).toBe("running");
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second: CallToolResult = { content: text("second") };
    app.setResult(second);
    expect(delivered).toEqual([second]);
    unmount();
    expect(closed).toBe(1);
    app.close();
    expect(app.mount({} as HTMLElement, () => Promise.resolve(mountApp))()).toBeUndefined();
    expect(mounts).toHaveLength(1);
    app.reopen();
    expect(app.snapshot()).toMatchObject({ open: true, log: [] });
    app.mount({} as HTMLElement, () => Promise.reject(new Error("chunk gone")));
    await until(() => app.snapshot().status === "failed", "the failure");
    expect(app.snapshot().log).toEqual(["could not start the app: chunk gone"]);
  });
});

describe("AppHost: the page's side", () => {
  let demo: Awaited<ReturnType<typeof startDemoHost>>;
  let page: Playground;
  beforeAll(async () => {
    demo = await startDemoHost();
    page = new Playground({
      registry: new ServerRegistry(),
      connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" },
      createWorker: liveWorker,
      modelStep: () => () => Promise.reject(new Error("no model in this test")),
    });
    page.start();
    await until(() => page.servers.view.snapshot().connected.length === 4 && page.workbench.sandbox.snapshot().ready, "the demo servers and the sandbox");
  });
  afterAll(async () => {
    await page.dispose();
    await demo.close();
  });

  it("reads the demo quote app from its server, and its calls run through the workbench onto the timeline", async () => {
    const tool = page.servers.toolsOf("shipping")?.find((t) => t.name === "get_quote");
    if (!tool) throw new Error("no get_quote");
    const app = new AppHost({ page: page.appPage, server: "shipping", tool, input: {} });
    expect(app.uri).toBe(QUOTE_APP_URI);
    await app.load();
    expect(app.snapshot().load).toMatchObject({ state: "ready", app: { uri: QUOTE_APP_URI } });
    const runs = page.workbench.history.snapshot().length;
    const answer = await app.frameHost.callTool("get_quote", { carrier: "postal", origin: "DE", destination: "FR", weightKg: 2 }, signal());
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ carrier: "postal", currency: expect.any(String) as unknown });
    await until(() => page.workbench.history.snapshot().length === runs + 1, "the app's call on the timeline");
    expect(page.servers.toolsOf("nowhere")).toBeUndefined();
    await expect(page.servers.readResourceOf("nowhere", QUOTE_APP_URI)).rejects.toThrow("nowhere is not connected.");
  });
});
