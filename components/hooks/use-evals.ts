"use client";

import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import type { EvalRun } from "@/lib/evals/report";
import type { EvalCase, EvalSuite } from "@/lib/evals/suite";
import { destructivePolicy, type DestructivePolicy, type EvalsState } from "@/lib/playground/page-tasks";

export type { DestructivePolicy } from "@/lib/playground/page-tasks";

export interface UseEvalsResult {
  suite: EvalSuite | undefined;
  /** Why the last suite text was refused, one line per problem. */
  errors: readonly string[];
  load: (text: string, fileName?: string) => void;
  addCase: (added: EvalCase) => void;
  runs: readonly EvalRun[];
  progress: { done: number; total: number } | undefined;
  running: boolean;
  /** What this page's runs do with destructive calls: the suite's policy until the person picks another. */
  destructive: DestructivePolicy;
  setDestructive: (policy: DestructivePolicy) => void;
  run: () => void;
  stop: () => void;
}

const IDLE: EvalsState = { suite: undefined, errors: [], runs: [], progress: undefined, running: false, chosen: undefined };

/** The page's eval suite (lib/playground/page-tasks.ts), as the evals dialog reads it. */
export function useEvals(): UseEvalsResult {
  const { evals } = usePage().playground;
  const state = useStore(evals, undefined, { fallback: IDLE });
  return {
    suite: state.suite,
    errors: state.errors,
    load: (text, fileName) => void evals.load(text, fileName),
    addCase: (added) => evals.addCase(added),
    runs: state.runs,
    progress: state.progress,
    running: state.running,
    destructive: destructivePolicy(state),
    setDestructive: (policy) => evals.setDestructive(policy),
    run: () => evals.run(),
    stop: () => evals.stop(),
  };
}
