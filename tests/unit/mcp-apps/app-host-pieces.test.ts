/** The pure pieces of the page's MCP App host: the flood cap, the person's requests, which calls an app may make, reading the app's resource. */
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { appCallRefusal } from "@/lib/mcp-apps/app-calls";
import { AppRequests } from "@/lib/mcp-apps/app-requests";
import { appResourceFrom, MAX_APP_HTML } from "@/lib/mcp-apps/app-resource";
import { FloodGate } from "@/lib/mcp-apps/flood";
import { resultForApp } from "@/lib/mcp-apps/app-result";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: "object" }, ...extra });

describe("FloodGate", () => {
  it("admits up to max per window, then trips for good", () => {
    const gate = new FloodGate(3);
    expect([0, 1, 2].map((t) => gate.admit(t))).toEqual([true, true, true]);
    expect(gate.admit(1500)).toBe(true); // a new window
    expect([1501, 1502].map((t) => gate.admit(t))).toEqual([true, true]);
    expect(gate.admit(1503)).toBe(false);
    expect(gate.tripped).toBe(true);
    expect(gate.admit(99_999)).toBe(false);
  });
});

describe("AppRequests", () => {
  it("a request waits until the person decides; deny, abort and denyAll all answer false", async () => {
    const requests = new AppRequests();
    const allowed = requests.ask("call", "Call place_order", "{}");
    expect(requests.snapshot()).toEqual([{ id: 1, kind: "call", title: "Call place_order", detail: "{}" }]);
    requests.decide(1, true);
    await expect(allowed).resolves.toBe(true);
    expect(requests.snapshot()).toEqual([]);

    const denied = requests.ask("link", "Open", "https://x");
    requests.decide(2, false);
    await expect(denied).resolves.toBe(false);

    const abort = new AbortController();
    const aborted = requests.ask("call", "Call", "{}", abort.signal);
    abort.abort();
    await expect(aborted).resolves.toBe(false);
    expect(requests.snapshot()).toEqual([]);
    await expect(requests.ask("call", "x", "", AbortSignal.abort())).resolves.toBe(false);

    const a = requests.ask("call", "a", "");
    const b = requests.ask("message", "b", "");
    requests.denyAll();
    await expect(Promise.all([a, b])).resolves.toEqual([false, false]);
    requests.decide(99, true); // unknown: nothing happens
  });
});

describe("app calls", () => {
  const tools = [
    tool("get_quote"),
    tool("refresh", { _meta: { ui: { resourceUri: "ui://x", visibility: ["app"] } } }),
    tool("model_only", { _meta: { ui: { visibility: ["model"] } } }),
    tool("delete_all", { annotations: { destructiveHint: true } }),
  ];

  it("an app calls its server's tools that apps may see, and nothing else", () => {
    expect(appCallRefusal(tools, "get_quote")).toBeUndefined();
    expect(appCallRefusal(tools, "refresh")).toBeUndefined();
    expect(appCallRefusal(tools, "model_only")).toMatch(/not visible to apps/);
    expect(appCallRefusal(tools, "other_server_tool")).toMatch(/no tool "other_server_tool"/);
  });
});

describe("appResourceFrom", () => {
  const uri = "ui://s/app.html";
  it("takes the app's content item, text or base64, with its checked policy and border preference", () => {
    const read = appResourceFrom(
      {
        contents: [
          { uri, mimeType: "text/plain", text: "not this" },
          {
            uri,
            mimeType: "text/html;profile=mcp-app",
            text: "<p>hi</p>",
            _meta: { ui: { csp: { connectDomains: ["https://api.example.com", "*"] }, prefersBorder: false } },
          },
        ],
      },
      uri,
    );
    expect(read).toEqual({ uri, html: "<p>hi</p>", csp: { connect: ["https://api.example.com"], resource: [], frame: [] }, prefersBorder: false });
    const blob = appResourceFrom({ contents: [{ uri, mimeType: "text/html;profile=mcp-app", blob: Buffer.from("<b>é</b>").toString("base64") }] }, uri);
    expect(blob).toMatchObject({ html: "<b>é</b>" });
  });

  it("says what is wrong with anything else", () => {
    expect(appResourceFrom({ contents: [] }, uri)).toEqual({ error: `The server returned no content for ${uri}.` });
    expect(appResourceFrom({ contents: [{ uri, mimeType: "image/png", blob: "AAAA" }] }, uri)).toEqual({
      error: `${uri} is image/png, not an app (text/html;profile=mcp-app).`,
    });
    expect(appResourceFrom({ contents: [{ uri, mimeType: "text/html;profile=mcp-app", blob: "%%%" }] }, uri)).toEqual({
      error: `${uri} has a blob that is not base64.`,
    });
    expect(appResourceFrom({ contents: [{ uri, mimeType: "text/html;profile=mcp-app", text: "x".repeat(MAX_APP_HTML + 1) }] }, uri)).toMatchObject({
      error: expect.stringContaining("an app may have at most") as unknown,
    });
  });
});

describe("resultForApp", () => {
  it("gives a kept call back as a result: an object as structuredContent and text, anything else as text, an error as isError", () => {
    expect(resultForApp({ value: { price: 26 } })).toEqual({ content: [{ type: "text", text: '{"price":26}' }], structuredContent: { price: 26 } });
    expect(resultForApp({ value: [1, 2] })).toEqual({ content: [{ type: "text", text: "[1,2]" }] });
    expect(resultForApp({ value: "plain" })).toEqual({ content: [{ type: "text", text: "plain" }] });
    expect(resultForApp({ value: undefined })).toEqual({ content: [{ type: "text", text: "" }] });
    expect(resultForApp({ error: "over the weight limit" })).toEqual({ content: [{ type: "text", text: "over the weight limit" }], isError: true });
  });
});
