/** Reading a tool's MCP App (lib/mcp-apps/tool-ui.ts), checked against the extension's own helpers. */
import { describe, expect, it } from "vitest";
import { getToolUiResourceUri, isToolVisibilityAppOnly, isToolVisibilityModelOnly } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Tool } from "@modelcontextprotocol/client";
import { callableByApp, modelTools, toolResourceUri, toolUi, toolVisibility, visibleToModel } from "@/lib/mcp-apps/tool-ui";

const tool = (meta?: Record<string, unknown>): Tool => ({ name: "t", inputSchema: { type: "object" }, ...(meta ? { _meta: meta } : {}) });

const CASES: Array<Record<string, unknown> | undefined> = [
  undefined,
  {},
  { ui: { resourceUri: "ui://a/b.html" } },
  { "ui/resourceUri": "ui://flat/x.html" },
  { ui: { resourceUri: "ui://nested.html" }, "ui/resourceUri": "ui://flat.html" },
  { ui: { resourceUri: "ui://a", visibility: ["app"] } },
  { ui: { resourceUri: "ui://a", visibility: ["model"] } },
  { ui: { resourceUri: "ui://a", visibility: ["model", "app"] } },
  { ui: { visibility: ["app"] } },
];

describe("tool-ui", () => {
  it("agrees with the extension's helpers on the resource URI and visibility", () => {
    for (const meta of CASES) {
      const t = tool(meta);
      expect(toolResourceUri(t), JSON.stringify(meta)).toBe(getToolUiResourceUri(t));
      expect(visibleToModel(t) && !callableByApp(t), JSON.stringify(meta)).toBe(isToolVisibilityModelOnly(t));
      expect(callableByApp(t) && !visibleToModel(t), JSON.stringify(meta)).toBe(isToolVisibilityAppOnly(t));
    }
  });

  it("an invalid URI is no app (the extension's helper throws; a listing must not)", () => {
    const t = tool({ ui: { resourceUri: "https://evil.example/app.html" } });
    expect(() => getToolUiResourceUri(t)).toThrow();
    expect(toolUi(t)).toBeUndefined();
    expect(toolUi(tool({ ui: "nonsense" }))).toBeUndefined();
    expect(toolUi(tool({ ui: { resourceUri: 42 } }))).toBeUndefined();
  });

  it("visibility defaults to both and ignores unknown entries", () => {
    expect(toolVisibility(tool())).toEqual(["model", "app"]);
    expect(toolVisibility(tool({ ui: { visibility: ["app", "other"] } }))).toEqual(["app"]);
    expect(toolVisibility(tool({ ui: { visibility: [] } }))).toEqual([]);
    expect(toolUi(tool({ ui: { resourceUri: "ui://x", visibility: ["app"] } }))).toEqual({ resourceUri: "ui://x", visibility: ["app"] });
  });

  it("modelTools leaves out app-only tools and keeps the same array when there are none", () => {
    const plain = [tool(), tool({ ui: { resourceUri: "ui://a" } })];
    expect(modelTools(plain)).toBe(plain);
    const hidden = { ...tool({ ui: { resourceUri: "ui://a", visibility: ["app"] } }), name: "hidden" };
    expect(modelTools([...plain, hidden]).map((t) => t.name)).toEqual(["t", "t"]);
  });
});
