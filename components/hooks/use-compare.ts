"use client";

import { useMemo } from "react";
import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import type { LaneChoice } from "@/lib/playground/model-settings";
import type { CompareState } from "@/lib/playground/page-tasks";
import type { LaneResult } from "@/lib/model/lanes";
import { useChatModel } from "./use-chat-model";

export { MAX_LANES } from "@/lib/playground/page-tasks";

export interface UseCompareResult {
  lanes: readonly LaneChoice[];
  setLanes: (lanes: LaneChoice[]) => void;
  results: readonly LaneResult[];
  running: boolean;
  run: (prompt: string) => void;
  stop: () => void;
}

const IDLE: CompareState = { custom: undefined, results: [], running: false };

/** The page's compare (lib/playground/page-tasks.ts), as the compare dialog reads it; lanes follow the chat's model until edited. */
export function useCompare(): UseCompareResult {
  const { compare } = usePage().playground;
  const state = useStore(compare, undefined, { fallback: IDLE });
  const { provider, modelId } = useChatModel();
  const lanes = useMemo<readonly LaneChoice[]>(
    () =>
      state.custom ?? [
        { toolMode: "code", provider, modelId },
        { toolMode: "classic", provider, modelId },
      ],
    [state.custom, provider, modelId],
  );
  return {
    lanes,
    setLanes: (next) => compare.setLanes(next),
    results: state.results,
    running: state.running,
    run: (prompt) => compare.run(prompt),
    stop: () => compare.stop(),
  };
}
