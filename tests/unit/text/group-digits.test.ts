import { describe, expect, it } from "vitest";
import { groupDigits } from "@/lib/text/display";

describe("groupDigits", () => {
  it("groups an integer's digits in threes, as en-US does", () => {
    for (const n of [0, 7, 999, 1000, 12_400, 999_999, 1_000_000, 123_456_789, -1234, -999]) expect(groupDigits(n)).toBe(n.toLocaleString("en-US"));
  });

  it("rounds a fraction first, and takes any separator", () => {
    expect(groupDigits(1234.5)).toBe("1,235");
    expect(groupDigits(-0.4)).toBe("0");
    expect(groupDigits(12_400, "\u00a0")).toBe("12\u00a0400");
  });

  it("writes what is not a finite number as JavaScript does", () => {
    expect(groupDigits(Number.NaN)).toBe("NaN");
    expect(groupDigits(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});
