import { describe, expect, it } from "vitest";
import { mediaOf } from "@/lib/mcp/result-display";

describe("media content", () => {
  it("turns MCP image and audio content into data URLs", () => {
    expect(mediaOf({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" })).toEqual({
      kind: "image",
      src: "data:image/png;base64,iVBORw0KGgo=",
      mimeType: "image/png",
    });
    expect(mediaOf({ type: "audio", data: "UklG\nRg==", mimeType: "audio/wav" })).toMatchObject({ kind: "audio", src: "data:audio/wav;base64,UklGRg==" });
  });

  it("refuses anything that could be more than media: a text/html type, a mismatched kind, non-base64 data", () => {
    expect(mediaOf({ type: "image", data: "PHNjcmlwdD4=", mimeType: "text/html" })).toBeUndefined();
    expect(mediaOf({ type: "image", data: "AAAA", mimeType: "audio/wav" })).toBeUndefined();
    expect(mediaOf({ type: "image", data: "<script>", mimeType: "image/png" })).toBeUndefined();
    expect(mediaOf({ type: "image", data: "AAAA", mimeType: "image/png;x=<b>" })).toBeUndefined();
    expect(mediaOf({ type: "text", text: "hi" })).toBeUndefined();
    expect(mediaOf(["image"])).toBeUndefined();
  });
});

describe("readable content", () => {
  it("shows JSON text parsed and leaves everything else as it is", async () => {
    const { readableContent } = await import("@/lib/mcp/result-display");
    expect(
      readableContent([
        { type: "text", text: '{"a":1}' },
        { type: "text", text: "plain words" },
        { type: "text", text: "[not json" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]),
    ).toEqual([
      { type: "text", "text (JSON)": { a: 1 } },
      { type: "text", text: "plain words" },
      { type: "text", text: "[not json" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
  });
});
