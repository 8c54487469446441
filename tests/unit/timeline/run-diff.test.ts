import { describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/timeline/run-diff";
import { addToHistory, MAX_HISTORY, removeFromHistory, summariseRun } from "@/lib/timeline/history";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import { fakeTool, recordRun } from "./helpers";

function catalog(prices: Record<string, number>) {
  const price = fakeTool(
    (args) => ({ sku: args.sku, price: prices[String(args.sku)] ?? 0 }),
    () => Math.random() * 10,
  );
  const stock = fakeTool((args) => ({ sku: args.sku, inStock: true }));
  return { shop: { price, stock, broken: fakeTool(() => Promise.reject(new Error("down"))) } };
}

describe("compareRuns", () => {
  it("finds added, removed and changed calls between two real runs, in order", async () => {
    const before = await recordRun(
      'const p = await Promise.all(["a", "b", "c"].map((sku) => shop.price({ sku }))); await shop.stock({ sku: "a" }); return p.length;',
      () => catalog({ a: 1, b: 2, c: 3 }),
    );
    const after = await recordRun(
      'const p = await Promise.all(["a", "b"].map((sku) => shop.price({ sku }))); await shop.stock({ sku: "z" }); await shop.broken().catch(() => 0); return p.length;',
      () => catalog({ a: 1, b: 5 }),
    );
    const comparison = compareRuns(before.record, after.record);
    expect(comparison.rows.map((r) => `${r.kind}:${(r.b ?? r.a)?.name}:${r.differences.join("+")}`)).toEqual([
      "same:price:",
      "changed:price:result",
      "removed:price:",
      "changed:stock:arguments+result",
      "added:broken:",
    ]);
    expect(comparison.counts).toEqual({ same: 1, changed: 2, added: 1, removed: 1 });
    expect(comparison.sameCode).toBe(false);
    expect(comparison.outcome).toEqual({ a: "ok", b: "ok" });
    expect(comparison.resultChanged).toBe(true);
  });

  it("shows no change for the same code whose parallel calls finished in another order", async () => {
    const code = 'return Promise.all(["a", "b", "c", "d"].map((sku) => shop.price({ sku })))';
    const a = await recordRun(code, () => catalog({ a: 1, b: 2, c: 3, d: 4 }));
    const b = await recordRun(code, () => catalog({ a: 1, b: 2, c: 3, d: 4 }));
    const comparison = compareRuns(a.record, b.record);
    expect(comparison.counts).toEqual({ same: 4, changed: 0, added: 0, removed: 0 });
    expect(comparison.sameCode).toBe(true);
    expect(comparison.resultChanged).toBe(false);
  });

  it("compares two 10 000-call runs", () => {
    const comparison = compareRuns(syntheticRun(10_000, 1), syntheticRun(10_000, 2));
    const { same, changed, added, removed } = comparison.counts;
    expect(same + changed + removed).toBe(10_000);
    expect(same + changed + added).toBe(10_000);
  });
});

describe("run history", () => {
  it("summarises runs and keeps the newest, bounded", async () => {
    const { record } = await recordRun("await shop.broken().catch(() => 0); return shop.stock({ sku: 'a' })", () => catalog({}));
    const summary = summariseRun(record);
    expect(summary).toMatchObject({ id: record.id, status: "ok", callCount: 2, errorCount: 1, simulatedCount: 0 });
    expect(summary.durationMs).toBeGreaterThan(0);

    let history = addToHistory([], record);
    for (let i = 0; i < MAX_HISTORY + 5; i++) history = addToHistory(history, { ...syntheticRun(1, i), id: `s${i}` });
    expect(history).toHaveLength(MAX_HISTORY);
    expect(history[0]?.record.id).toBe(`s${MAX_HISTORY + 4}`);
    expect(addToHistory(history, { ...syntheticRun(2), id: "s24" })).toHaveLength(MAX_HISTORY);
    expect(removeFromHistory(history, "s24")).toHaveLength(MAX_HISTORY - 1);
    expect(removeFromHistory(history, "nope")).toBe(history);
  });

  it("caps the conversation's, the editor's and the other runs apart: 30 editor runs and an eval suite push out neither the chat's run nor the editor's last", () => {
    let history = addToHistory([], { ...syntheticRun(1, 1), id: "chat-0" }, "chat");
    for (let i = 0; i < 30; i++) history = addToHistory(history, { ...syntheticRun(1, i), id: `editor-${i}` }, "editor");
    for (let i = 0; i < 24; i++) history = addToHistory(history, { ...syntheticRun(1, i), id: `eval-${i}` }, i % 2 === 0 ? "eval" : "compare");
    expect(history).toHaveLength(2 * MAX_HISTORY + 1);
    expect(history.at(-1)?.record.id).toBe("chat-0");
    expect(history.filter((e) => e.source === "editor").map((e) => e.record.id)).toEqual(Array.from({ length: MAX_HISTORY }, (_, i) => `editor-${29 - i}`));
    expect(history.filter((e) => e.source === "eval" || e.source === "compare")).toHaveLength(MAX_HISTORY);
    expect(history[0]?.record.id).toBe("eval-23");
    for (let i = 1; i <= MAX_HISTORY; i++) history = addToHistory(history, { ...syntheticRun(1, i), id: `chat-${i}` }, "chat");
    expect(history.filter((e) => e.source === "chat")).toHaveLength(MAX_HISTORY);
    expect(history.some((e) => e.record.id === "chat-0")).toBe(false);
  });
});
