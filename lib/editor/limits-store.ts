import { resolveLimits } from "../sandbox/limits";
import type { SandboxLimits } from "../sandbox/types";
import { messageOf } from "../text/error-message";
import type { TextStorage } from "../storage/key-value";

/** The limits a person may set from the editor, in the units the form shows. */
export const EDITABLE_LIMITS = [
  { key: "maxCalls", label: "Tool calls per run", unit: "", scale: 1 },
  { key: "maxConcurrency", label: "Calls in flight", unit: "", scale: 1 },
  { key: "wallMs", label: "Wall clock", unit: "s", scale: 1000 },
  { key: "cpuMs", label: "CPU time", unit: "s", scale: 1000 },
  { key: "callTimeoutMs", label: "One call", unit: "s", scale: 1000 },
  { key: "memoryBytes", label: "Memory", unit: "MB", scale: 1024 * 1024 },
] as const satisfies ReadonlyArray<{ key: keyof SandboxLimits; label: string; unit: string; scale: number }>;

export type EditableLimitKey = (typeof EDITABLE_LIMITS)[number]["key"];
/** Overrides of the defaults; absent keys use DEFAULT_LIMITS. */
export type LimitOverrides = Partial<Pick<SandboxLimits, EditableLimitKey>>;

const KEY = "cmp:run-limits:v1";

/**
 * Checks overrides with the sandbox's own validation, so the form can never start a run the
 * engine would refuse; returns the message of the first problem.
 */
export function checkLimits(overrides: LimitOverrides): { ok: true } | { ok: false; message: string } {
  try {
    resolveLimits(overrides);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** Keeps only editable keys with valid numbers (what came from storage or a share may be anything). */
export function sanitiseOverrides(value: unknown): LimitOverrides {
  if (!value || typeof value !== "object") return {};
  const out: LimitOverrides = {};
  for (const { key } of EDITABLE_LIMITS) {
    const n: unknown = (value as Record<string, unknown>)[key];
    if (typeof n === "number" && Number.isFinite(n) && n > 0) out[key] = n;
  }
  return checkLimits(out).ok ? out : {};
}

/** Limit overrides kept in this browser; storage is injected so tests need no browser. */
export function createLimitsStore(storage: TextStorage | undefined) {
  return {
    load(): LimitOverrides {
      try {
        const text = storage?.getItem(KEY);
        return text ? sanitiseOverrides(JSON.parse(text)) : {};
      } catch {
        return {};
      }
    },
    save(overrides: LimitOverrides): void {
      try {
        storage?.setItem(KEY, JSON.stringify(overrides));
      } catch {
        // Storage full or disabled: the limits apply for this session only.
      }
    },
  };
}
