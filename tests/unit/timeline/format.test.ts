import { describe, expect, it } from "vitest";
import { truncateForDisplay } from "@/lib/text/display";
import { formatDuration } from "@/lib/timeline/format";

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [0.42, "0.4 ms"],
    [2.5, "2.5 ms"],
    [9.99, "10 ms"],
    [250.4, "250 ms"],
    [1_000, "1 s"],
    [1_250, "1.25 s"],
    [12_340, "12.3 s"],
    [60_000, "1 min"],
    [125_000, "2 min 5 s"],
    [3_600_000, "1 h"],
    [3_720_000, "1 h 2 min"],
  ])("%s ms is %s", (ms, text) => expect(formatDuration(ms)).toBe(text));

  it.each([undefined, -1, Number.NaN, Number.POSITIVE_INFINITY])("%s is unknown", (ms) => expect(formatDuration(ms)).toBe("—"));
});

describe("truncateForDisplay", () => {
  it("prints JSON values exactly as JSON.stringify(value, null, 2)", () => {
    const value = { a: 1, b: [true, null, "x", { c: [] }, {}], d: { "e f": -2.5e-7 }, skipped: undefined, list: [undefined, () => 1] };
    expect(truncateForDisplay(value, 10_000)).toEqual({ text: JSON.stringify(value, null, 2), truncated: false });
    for (const scalar of [null, 0, "text", false, [], {}]) expect(truncateForDisplay(scalar, 100).text).toBe(JSON.stringify(scalar, null, 2));
    const date = new Date(0);
    expect(truncateForDisplay({ date }, 100).text).toBe(JSON.stringify({ date }, null, 2));
  });

  it("cuts long values to maxChars, ending with an ellipsis", () => {
    const value = { items: Array.from({ length: 1_000 }, (_, i) => ({ i, name: `item ${i}` })) };
    const { text, truncated } = truncateForDisplay(value, 200);
    expect(truncated).toBe(true);
    expect(text).toHaveLength(200);
    expect(text.endsWith("…")).toBe(true);
    expect(text.slice(0, 199)).toBe(JSON.stringify(value, null, 2).slice(0, 199));
    expect(truncateForDisplay("a".repeat(5_000_000), 50)).toEqual({ text: `"${"a".repeat(48)}…`, truncated: true });
  });

  it("does not cut when the text fits exactly", () => {
    expect(truncateForDisplay("abc", 5)).toEqual({ text: '"abc"', truncated: false });
    expect(truncateForDisplay("abcd", 5)).toEqual({ text: '"abc…', truncated: true });
  });

  it("never splits a surrogate pair", () => {
    expect(truncateForDisplay("😀😀😀😀", 4).text).toBe('"😀…');
    // Cutting at 3 would keep half of the first emoji: it goes whole.
    expect(truncateForDisplay("😀😀😀😀", 3).text).toBe('"…');
  });

  it("survives cycles, BigInt, non-finite numbers and undefined", () => {
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    const shared = { x: 1 };
    expect(JSON.parse(truncateForDisplay({ loop, a: shared, b: shared }, 1_000).text)).toEqual({
      loop: { name: "loop", self: "[circular]" },
      a: { x: 1 },
      b: { x: 1 },
    });
    expect(truncateForDisplay({ big: 12345678901234567890n, nan: Number.NaN }, 100).text).toBe('{\n  "big": 12345678901234567890,\n  "nan": null\n}');
    expect(truncateForDisplay(undefined, 100)).toEqual({ text: "undefined", truncated: false });
  });
});
