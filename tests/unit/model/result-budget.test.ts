import { describe, expect, it } from "vitest";
import { shapeValue } from "@/lib/model/result-budget";
import { runResultToOutput } from "@/lib/model/tool-output";
import { errorResult, NO_RUN_STATS } from "@/lib/sandbox/errors";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `item ${i}`, description: "x".repeat(40) }));
const size = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);

describe("result shaping", () => {
  it("leaves a value within the budget untouched (the same object)", () => {
    const value = { rows: rows(10) };
    expect(shapeValue(value, 6_000).value).toBe(value);
    expect(shapeValue(value, 6_000).truncated).toBeUndefined();
  });

  it("cuts a large array to its first entries, marks the cut, fits the budget, and says how to get the rest", () => {
    const value = { total: 5_000, rows: rows(5_000) };
    const shaped = shapeValue(value, 1_000);
    expect(size(shaped.value)).toBeLessThanOrEqual(1_000);
    const cut = shaped.value as { total: number; rows: unknown[] };
    expect(cut.total).toBe(5_000);
    expect(cut.rows[0]).toEqual(value.rows[0]);
    expect(cut.rows.at(-1)).toMatch(/^… \d+ more items$/);
    // As light as possible: one more entry would not fit.
    const kept = cut.rows.length - 1;
    expect(kept).toBeGreaterThan(10);
    expect(shaped.truncated).toMatchObject({ budget: 1_000, tokens: size(value) });
    expect(shaped.truncated?.note).toMatch(/over the 1000-token budget.*first \d+ entries.*return less.*pages/s);
  });

  it("cuts long strings and wide objects too", () => {
    const shaped = shapeValue({ text: "y".repeat(100_000) }, 500);
    expect((shaped.value as { text: string }).text).toMatch(/^y{500}… \(99500 more characters\)$/);
    const wide = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`k${i}`, i]));
    const cutWide = shapeValue(wide, 300).value as Record<string, unknown>;
    expect(cutWide["…"]).toMatch(/more keys$/);
    expect(size(cutWide)).toBeLessThanOrEqual(300);
  });

  it("falls back to the start of the JSON text when no structural cut fits", () => {
    let deep: unknown = "z".repeat(200);
    for (let i = 0; i < 400; i++) deep = { d: deep };
    const shaped = shapeValue(deep, 200);
    expect(typeof shaped.value).toBe("string");
    expect(shaped.truncated?.note).toContain("start of its JSON text");
  });

  it("the model's execute_code output carries the cut value and the note; errors pass through", () => {
    const output = runResultToOutput({ ok: true, value: rows(2_000), logs: [], stats: NO_RUN_STATS }, 800);
    expect(output).toMatchObject({ ok: true, truncated: { budget: 800 } });
    expect(runResultToOutput(errorResult({ kind: "runtime", message: "boom" }))).toMatchObject({ ok: false, error: { message: "boom" } });
  });
});
