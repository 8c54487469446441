import { SandboxConfigError } from "./errors";
import type { SandboxLimits } from "./types";

const KB = 1024;
const MB = 1024 * KB;

/**
 * Default limits, taken from the peers' (docs/sandbox.md, "The sandbox contract"):
 * 128 MB, 10 s CPU, 60 s wall, 30 s per call, 10 in flight, 1 000 calls.
 *
 * The stack is 128 KB, not 1 MB: QuickJS measures its stack in WASM linear memory, but the
 * interpreter's native frames live on the host's own stack, which runs out first. Measured:
 * in a Chromium worker, 128 KB lets QuickJS catch plain, getter and callback recursion itself
 * (about 680 plain frames) while 192 KB already overflows the host first; Node's main thread
 * holds up to 256 KB. The paths QuickJS still misses (deep JSON, toJSON recursion) end the same
 * way, as `stack`, through the engine's poisoned-module path (it loads a fresh module).
 */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 128 * MB,
  stackBytes: 128 * KB,
  cpuMs: 10_000,
  wallMs: 60_000,
  callTimeoutMs: 30_000,
  maxConcurrency: 10,
  maxCalls: 1_000,
  resultBytes: 1 * MB,
  logBytes: 256 * KB,
});

const INTEGER_LIMITS: ReadonlySet<keyof SandboxLimits> = new Set(["maxConcurrency", "maxCalls"]);

function isLimitName(key: string): key is keyof SandboxLimits {
  return Object.hasOwn(DEFAULT_LIMITS, key);
}

/** Fills in defaults and validates every given limit; throws SandboxConfigError on a bad one. */
export function resolveLimits(partial: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(partial) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    if (!isLimitName(key)) throw new SandboxConfigError(`Unknown sandbox limit "${key}".`);
    const valid = typeof value === "number" && Number.isFinite(value) && value > 0 && (!INTEGER_LIMITS.has(key) || Number.isInteger(value));
    if (!valid) {
      const expected = INTEGER_LIMITS.has(key) ? "a positive integer" : "a positive finite number";
      throw new SandboxConfigError(
        `Invalid sandbox limit ${key}: expected ${expected}, got ${typeof value === "number" ? value : (JSON.stringify(value) ?? typeof value)}.`,
      );
    }
    limits[key] = value;
  }
  return limits;
}
