"use client";

import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import type { LimitOverrides } from "@/lib/editor/limits-store";

export interface UseRunLimitsResult {
  overrides: LimitOverrides;
  /** Replaces the overrides (already validated by the caller) and saves them in this browser. */
  set: (next: LimitOverrides) => void;
  reset: () => void;
}

const NONE: LimitOverrides = {};

/** The person's run limits (lib/playground/run-limits.ts). */
export function useRunLimits(): UseRunLimitsResult {
  const { limits } = usePage().playground;
  const overrides = useStore(limits, undefined, { fallback: NONE });
  return { overrides, set: limits.replace, reset: limits.reset };
}
