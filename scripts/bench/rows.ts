/** One printed benchmark figure. `median` for timings, `value` for counts and ratios. */
export interface BenchRow {
  name: string;
  median?: number;
  value?: number;
  unit: string;
  note?: string;
}

export { median, percentile } from "../../lib/numbers/stats";

/** Prints rows as a Markdown table, so the output pastes straight into notes and docs/benchmarks.md. */
export function printRows(rows: BenchRow[]): void {
  console.log("| benchmark | figure | note |");
  console.log("| --- | --- | --- |");
  for (const row of rows) {
    const figure = row.median ?? row.value;
    const shown = figure === undefined ? "n/a" : `${formatNumber(figure)} ${row.unit}`;
    const label = row.median !== undefined ? "median " : "";
    console.log(`| ${row.name} | ${label}${shown} | ${row.note ?? ""} |`);
  }
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}
