import { describe, expect, it } from "vitest";
import { ToolError, unwrapToolResult } from "@/lib/mcp/unwrap";
import type { ToolResultLike } from "@/lib/mcp/unwrap";

const text = (t: string) => ({ type: "text", text: t });
const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

describe("unwrapToolResult", () => {
  it.each<[string, ToolResultLike, unknown]>([
    ["structuredContent wins over text", { content: [text('{"other":1}')], structuredContent: { price: 1 } }, { price: 1 }],
    ["structuredContent alone", { structuredContent: { ok: true } }, { ok: true }],
    ["one JSON text item", { content: [text('{"a":[1,2]}')] }, { a: [1, 2] }],
    ["a JSON scalar", { content: [text("42")] }, 42],
    ["plain text", { content: [text("hello")] }, "hello"],
    ["JSON split over text items", { content: [text('{"a":'), text("1}")] }, { a: 1 }],
    ["several text items", { content: [text("line 1"), text("line 2")] }, "line 1\nline 2"],
    ["empty content", { content: [] }, null],
    ["no content at all", {}, null],
    ["null structuredContent falls back to text", { content: [text("[1]")], structuredContent: null }, [1]],
    ["mixed content stays an array", { content: [text("caption"), image] }, [text("caption"), image]],
    ["audio", { content: [{ type: "audio", data: "AAA", mimeType: "audio/wav" }] }, [{ type: "audio", data: "AAA", mimeType: "audio/wav" }]],
    ["resource links", { content: [{ type: "resource_link", uri: "file:///a", name: "a" }] }, [{ type: "resource_link", uri: "file:///a", name: "a" }]],
    [
      "embedded resources",
      { content: [{ type: "resource", resource: { uri: "x:1", text: "t" } }] },
      [{ type: "resource", resource: { uri: "x:1", text: "t" } }],
    ],
  ])("%s", (_label, result, expected) => {
    expect(unwrapToolResult(result)).toEqual(expected);
  });

  it("throws a ToolError carrying the server's message for isError", () => {
    const result = { content: [text("carrier refused"), text("try another")], isError: true };
    let caught: unknown;
    try {
      unwrapToolResult(result);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect(caught).toMatchObject({ message: "carrier refused\ntry another", code: "tool_error", result });
    expect(() => unwrapToolResult({ isError: true, structuredContent: { a: 1 } })).toThrow("The tool reported an error without a message");
  });
});
