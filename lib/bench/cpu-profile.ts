/**
 * A V8 sampling profile (DevTools' Profiler.stop) summed by kind of main-thread work: the page's
 * JavaScript, the browser's own work the profiler cannot see into, and GC. The peers bench
 * (scripts/bench/peers.ts) reads each app's start with it. Pure.
 */

/** Main-thread time by kind, from a sampling profile (ms). */
export interface MainThread {
  /** Running the page's JavaScript. */
  js: number;
  /**
   * The browser's own work the profiler cannot see into (parsing, compiling scripts, style, layout,
   * paint), and its waits: a main thread blocked on a synchronous request (the font service's,
   * docs/benchmarks.md) samples as this too.
   */
  browser: number;
  gc: number;
}

/** Samples of a V8 CPU profile as the protocol returns it. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Sums a profile's samples up to `untilUs` (its own clock) by kind; idle time is left out. */
export function mainThreadByKind(profile: CpuProfile, untilUs: number): MainThread {
  const kind = new Map<number, keyof MainThread | undefined>();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName;
    kind.set(node.id, name === "(idle)" || name === "(root)" ? undefined : name === "(program)" ? "browser" : name === "(garbage collector)" ? "gc" : "js");
  }
  const out: MainThread = { js: 0, browser: 0, gc: 0 };
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at > untilUs) break;
    // A sample stands for the time until the next one.
    const span = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const k = kind.get(profile.samples[i]!);
    if (k) out[k] += span;
  }
  return out;
}
