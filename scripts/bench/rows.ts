/** One printed benchmark figure. `median` for timings, `value` for counts and ratios. */
export interface BenchRow {
  name: string;
  median?: number;
  value?: number;
  unit: string;
  note?: string;
}

/** Median of a list of samples (the list is copied, not sorted in place). */
export function median(samples: number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The value below which `p` (0–1) of the samples fall (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

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
