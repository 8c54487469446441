import { describe, expect, it } from "vitest";
import { classicProgram, classicToolName, classicTools, CLASSIC_SYSTEM_PROMPT, createToolCatalog } from "@/lib/codemode";
import { runInNode } from "@/lib/sandbox/node/node-engine";

describe("classic tools", () => {
  it("names every tool namespace__function within 64 safe characters, unique even after cutting", () => {
    const long = "a".repeat(70);
    const tools = classicTools([
      { name: "my server", tools: [{ name: "get-thing", inputSchema: { type: "object" } }] },
      {
        name: "x",
        tools: [
          { name: `${long}1`, inputSchema: { type: "object" } },
          { name: `${long}2`, inputSchema: {} },
        ],
      },
    ]);
    expect(tools.map((t) => t.name)).toEqual([
      "my_server__get_thing",
      classicToolName("x", `${long}1`.slice(0, 61)).slice(0, 64),
      expect.stringMatching(/_2$/) as string,
    ]);
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(tools.map((t) => t.name)).size).toBe(3);
    expect(tools[0]).toMatchObject({ namespace: "my_server", fn: "get_thing", server: "my server", tool: "get-thing" });
  });

  it("offers an object schema even when a server sent none or a broken one", () => {
    const [a, b] = classicTools([
      {
        name: "s",
        tools: [
          { name: "a", inputSchema: { type: "string" } },
          { name: "b", inputSchema: { properties: { q: { type: "string" } } } },
        ],
      },
    ]);
    expect(a?.inputSchema).toEqual({ type: "object" });
    expect(b?.inputSchema).toEqual({ type: "object", properties: { q: { type: "string" } } });
  });

  it("runs a round as one program: each call's value or error, in order", async () => {
    const program = classicProgram([
      { namespace: "t", fn: "ok", args: { n: 1 } },
      { namespace: "t", fn: "boom", args: { text: "</script>\u2028" } },
    ]);
    const result = await runInNode(
      { code: program },
      {
        t: {
          ok: (args) => Promise.resolve({ got: args }),
          boom: () => Promise.reject(new Error("no such thing")),
        },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      value: [
        { ok: true, value: { got: { n: 1 } } },
        { ok: false, error: "no such thing" },
      ],
    });
  });

  it("refuses a namespace that is not an identifier (nothing from a model becomes code)", () => {
    expect(() => classicProgram([{ namespace: "x; steal()", fn: "f", args: {} }])).toThrow(/Not an identifier/);
  });
});

describe("classic with tool search", () => {
  const catalog = createToolCatalog([
    {
      name: "shipping",
      tools: [
        { name: "get_quote", description: "Price of a parcel\n  by carrier.", inputSchema: { type: "object", properties: { carrier: { type: "string" } } } },
        { name: "list_carriers", description: "Every carrier.", inputSchema: { type: "object" } },
      ],
    },
    { name: "my lab", tools: [{ name: "run", description: "x".repeat(250), inputSchema: { type: "object" } }] },
  ]);

  it("tells the model the servers and that tools load on demand (exact text)", () => {
    expect(catalog.classicSearchPrompt).toBe(`${CLASSIC_SYSTEM_PROMPT}

The catalog is too large to offer every tool at once. These servers exist:
- my_lab (server "my lab"): 1 tool
- shipping: 2 tools

Tools load on demand: call search_tools with a few keywords, and its best matches become tools you can call from your next step. Search again with other words when nothing fits.`);
  });

  it("a search loads classic tools by name and lists each on one line, long descriptions cut", () => {
    expect(catalog.classicSearch("quote carrier", 1)).toEqual({
      tools: ["shipping__get_quote"],
      text: "Loaded 1 tool, callable from your next step:\n- shipping__get_quote: Price of a parcel by carrier.",
    });
    const lab = catalog.classicSearch("run", 5);
    expect(lab.tools).toEqual(["my_lab__run"]);
    expect(lab.text).toBe(`Loaded 1 tool, callable from your next step:\n- my_lab__run: ${"x".repeat(199)}…`);
    expect(catalog.classicSearch("zebra", 5)).toEqual({ tools: [], text: "Loaded 0 tools, callable from your next step:\n" });
  });
});
