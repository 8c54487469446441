import { describe, expect, it } from "vitest";
import { median, percentile } from "@/lib/numbers/stats";

describe("median and percentile", () => {
  it("take the middle sample, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("leave the samples as they were", () => {
    const samples = [3, 1, 2];
    median(samples);
    percentile(samples, 0.5);
    expect(samples).toEqual([3, 1, 2]);
  });

  it("say NaN for no samples rather than a figure nobody measured", () => {
    expect(median([])).toBeNaN();
    expect(percentile([], 0.95)).toBeNaN();
  });

  it("rank percentiles to the nearest sample", () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(samples, 0.5)).toBe(50);
    expect(percentile(samples, 0.95)).toBe(95);
    expect(percentile(samples, 1)).toBe(100);
    expect(percentile(samples, 0)).toBe(1);
  });
});
