import { describe, expect, it } from "vitest";
import { mainThreadByKind, type CpuProfile } from "@/lib/bench/cpu-profile";

const frame = (functionName: string, url = "") => ({ functionName, url });

/** root, idle, program, gc, and two script frames; samples 1 ms apart from t = 1 000 000 µs. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)") },
    { id: 2, callFrame: frame("(idle)") },
    { id: 3, callFrame: frame("(program)") },
    { id: 4, callFrame: frame("(garbage collector)") },
    { id: 5, callFrame: frame("render", "http://127.0.0.1/_next/static/chunks/a.js") },
    { id: 6, callFrame: frame("", "http://127.0.0.1/_next/static/chunks/b.js") },
  ],
  startTime: 1_000_000,
  endTime: 1_008_000,
  samples: [2, 3, 3, 5, 6, 4, 5, 2],
  timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe("mainThreadByKind", () => {
  it("sums each sample's span (until the next sample) by kind and leaves idle out", () => {
    // Samples at 0..7 ms; the last has no next sample and counts nothing.
    expect(mainThreadByKind(profile, Infinity)).toEqual({ js: 3, browser: 2, gc: 1 });
  });

  it("stops at the given moment of the profile's own clock", () => {
    // Samples at 0, 1, 2, 3 ms from the start: idle, program, program, script.
    expect(mainThreadByKind(profile, 1_003_000)).toEqual({ js: 1, browser: 2, gc: 0 });
    expect(mainThreadByKind(profile, 999_999)).toEqual({ js: 0, browser: 0, gc: 0 });
  });
});
