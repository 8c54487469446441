import { describe, expect, it } from "vitest";
import { sharedRunLabel } from "@/lib/share/run-label";

const record = (events: unknown[], title?: string) => ({
  format: "code-mode-playground/run",
  version: 1,
  id: "r1",
  startedAt: "2026-11-24T00:00:00Z",
  events,
  ...(title ? { title } : {}),
});
const start = (code: string) => ({ type: "start", time: 0, codeHash: "h", code, limits: {}, api: {} });
const stats = { wallMs: 1, hostCalls: 0, peakInFlight: 0 };

describe("shared run labels", () => {
  it("names a run by its title, else its first line of code (comments skipped), with its value or its failure", () => {
    expect(sharedRunLabel(record([start("// a comment\n\nreturn 42"), { type: "end", time: 1, ok: true, value: 42, stats }]), 0)).toEqual({
      label: "return 42",
      outcome: "→ 42",
    });
    expect(
      sharedRunLabel(record([start("x"), { type: "end", time: 1, ok: false, error: { kind: "timeout", message: "m" }, stats }], "agent · execute_code"), 0),
    ).toEqual({
      label: "agent · execute_code",
      outcome: "failed: timeout",
    });
    expect(sharedRunLabel(record([start("return 1")]), 2)).toEqual({ label: "return 1", outcome: undefined });
  });

  it("a long value is clipped; anything that is not a run is just 'run N'", () => {
    const long = sharedRunLabel(record([start("return x"), { type: "end", time: 1, ok: true, value: "y".repeat(500), stats }]), 0);
    expect(long.outcome?.length).toBeLessThanOrEqual(50);
    expect(sharedRunLabel({ nope: true }, 4)).toEqual({ label: "run 5", outcome: undefined });
  });
});
