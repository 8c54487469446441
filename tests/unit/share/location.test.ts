import { describe, expect, it } from "vitest";
import { hashWithoutShare, readShareFromLocation, shareLinkUrl, shortLinkUrl, storedShareTarget } from "@/lib/share/browser/location";

const ID = "AbCdEfGhIjKlMnOpQrStUv";

describe("readShareFromLocation", () => {
  it.each([
    ["", { kind: "none" }],
    ["#", { kind: "none" }],
    ["#other=1", { kind: "none" }],
    ["#share=v1.abc", { kind: "link", encoded: "v1.abc" }],
    ["#x=1&share=v1.a-b_c", { kind: "link", encoded: "v1.a-b_c" }],
    [`#share-id=${ID}`, { kind: "stored", id: ID }],
    ["#share-id=../../etc/passwd", { kind: "invalid", message: "This short link's id is malformed." }],
    ["#share=", { kind: "none" }],
  ])("%s", (hash, expected) => expect(readShareFromLocation({ hash })).toEqual(expected));
});

describe("URLs", () => {
  it("builds links, short links and the redirect target", () => {
    expect(shareLinkUrl("https://app.example/", "v1.abc")).toBe("https://app.example/#share=v1.abc");
    expect(shortLinkUrl("https://app.example", ID)).toBe(`https://app.example/s/${ID}`);
    expect(storedShareTarget(ID)).toBe(`/#share-id=${ID}`);
    expect(readShareFromLocation(new URL(shareLinkUrl("https://app.example", "v1.x_y-z")))).toEqual({ kind: "link", encoded: "v1.x_y-z" });
  });

  it("drops only the share keys from a fragment", () => {
    expect(hashWithoutShare("#share=v1.abc")).toBe("");
    expect(hashWithoutShare(`#tab=tools&share-id=${ID}`)).toBe("#tab=tools");
    expect(hashWithoutShare("")).toBe("");
  });
});
