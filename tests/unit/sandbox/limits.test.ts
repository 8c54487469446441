import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, resolveLimits } from "@/lib/sandbox/limits";
import { SandboxConfigError, SandboxFailure, sandboxError, serializeError } from "@/lib/sandbox/errors";

describe("limits", () => {
  it("defaults to the anchors' figures", () => {
    expect(DEFAULT_LIMITS).toEqual({
      memoryBytes: 128 * 1024 * 1024,
      stackBytes: 128 * 1024,
      cpuMs: 10_000,
      wallMs: 60_000,
      callTimeoutMs: 30_000,
      maxConcurrency: 10,
      maxCalls: 1_000,
      resultBytes: 1024 * 1024,
      logBytes: 256 * 1024,
    });
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
  });

  it("fills in defaults around the limits given", () => {
    expect(resolveLimits({ cpuMs: 50, maxCalls: 3 })).toEqual({ ...DEFAULT_LIMITS, cpuMs: 50, maxCalls: 3 });
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ wallMs: undefined })).toEqual(DEFAULT_LIMITS);
  });

  it.each([
    [{ memoryBytes: 0 }, /memoryBytes: expected a positive finite number, got 0/],
    [{ cpuMs: -5 }, /cpuMs: expected a positive finite number, got -5/],
    [{ wallMs: Number.POSITIVE_INFINITY }, /wallMs: .* got Infinity/],
    [{ wallMs: Number.NaN }, /wallMs: .* got NaN/],
    [{ maxCalls: 2.5 }, /maxCalls: expected a positive integer, got 2.5/],
    [{ maxConcurrency: "3" as unknown as number }, /maxConcurrency: expected a positive integer, got "3"/],
    [{ memoryMb: 1 } as never, /Unknown sandbox limit "memoryMb"/],
  ])("refuses %j with a clear error", (partial, message) => {
    expect(() => resolveLimits(partial)).toThrow(SandboxConfigError);
    expect(() => resolveLimits(partial)).toThrow(message);
  });
});

describe("errors", () => {
  it("gives every failure a stable code and plain data", () => {
    const failure = new SandboxFailure(sandboxError("limit", "too many", { limit: "maxCalls" }));
    expect(failure.code).toBe("sandbox:limit");
    expect(serializeError(failure)).toEqual({ kind: "limit", message: "too many", limit: "maxCalls" });
    expect(new SandboxConfigError("bad").code).toBe("sandbox:config");
  });

  it("turns anything thrown into a SandboxError with the fallback kind", () => {
    expect(serializeError(new TypeError("nope"))).toMatchObject({ kind: "runtime", message: "nope" });
    expect(serializeError("plain", "tool")).toEqual({ kind: "tool", message: "plain" });
    expect(serializeError({ a: 1 })).toEqual({ kind: "runtime", message: '{"a":1}' });
  });

  it("leaves undefined fields out, so the data survives JSON and postMessage unchanged", () => {
    const error = sandboxError("runtime", "x", { line: undefined, stack: "s" });
    expect(error).toEqual({ kind: "runtime", message: "x", stack: "s" });
    expect(Object.keys(error)).not.toContain("line");
  });
});
