/**
 * Display text for the timeline: durations. Values shown as pretty JSON cut to a size come from
 * lib/text/display.ts, the one display truncation. Pure.
 */

/** A duration for people: "0.4 ms", "250 ms", "1.25 s", "2 min 5 s", "1 h 2 min"; "—" when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 10) return `${trimZeros(ms.toFixed(1))} ms`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${trimZeros((ms / 1_000).toFixed(2))} s`;
  if (ms < 60_000) return `${trimZeros((ms / 1_000).toFixed(1))} s`;
  const totalSeconds = Math.round(ms / 1_000);
  if (totalSeconds < 3_600) return joinUnits(Math.floor(totalSeconds / 60), "min", totalSeconds % 60, "s");
  const totalMinutes = Math.round(totalSeconds / 60);
  return joinUnits(Math.floor(totalMinutes / 60), "h", totalMinutes % 60, "min");
}

function trimZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

function joinUnits(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}
