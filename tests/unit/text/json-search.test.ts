import { describe, expect, it } from "vitest";
import { searchJson } from "@/lib/text/json-search";

describe("JSON search", () => {
  const value = {
    carriers: [
      { id: "swiftair", name: "SwiftAir Express" },
      { id: "postal", days: 18 },
    ],
    "a/b": { note: "Swift" },
  };

  it("finds keys and scalar text, case-insensitively, and names the branches to open", () => {
    const found = searchJson(value, "swift");
    expect([...found.hits].sort()).toEqual(["/a~1b/note", "/carriers/0/id", "/carriers/0/name"]);
    expect([...found.open].sort()).toEqual(["", "/a~1b", "/carriers", "/carriers/0"]);
    expect(searchJson(value, "days").hits).toEqual(new Set(["/carriers/1/days"]));
    expect(searchJson(value, "18").hits).toEqual(new Set(["/carriers/1/days"]));
  });

  it("an empty query finds nothing; a huge value is walked only up to the bound", () => {
    expect(searchJson(value, "  ").hits.size).toBe(0);
    const big = Array.from({ length: 100 }, (_, i) => ({ i, tag: i === 99 ? "needle" : "hay" }));
    expect(searchJson(big, "needle", 50)).toMatchObject({ partial: true });
    expect(searchJson(big, "needle").hits).toEqual(new Set(["/99/tag"]));
  });
});
