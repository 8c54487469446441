import { describe, expect, it } from "vitest";
import { classicProgram, classicToolName, classicTools } from "@/lib/codemode";
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
