"use client";

import { handlersForMode } from "@/lib/model/tool-handler";
import { useCallback, useMemo, useState } from "react";
import { usePageTask } from "./use-page-task";
import type { LaneChoice, UseChatModelResult } from "./use-chat-model";
import type { UseChatBridgeResult } from "./use-chat-bridge";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { runCompare, type LaneResult, type LaneRunner } from "@/lib/model/lanes";
import { providerInfo } from "@/lib/model/providers";

export interface UseCompareResult {
  lanes: readonly LaneChoice[];
  setLanes: (lanes: LaneChoice[]) => void;
  results: readonly LaneResult[];
  running: boolean;
  run: (prompt: string) => void;
  stop: () => void;
}

/** Most lanes in one compare. */
export const MAX_LANES = 4;

/**
 * Compare lanes in the page: each lane is its own conversation through the one agent loop, its
 * requests through /api/chat with the lane's tool mode and model, its programs through the
 * page's sandbox and host functions (so mocks and approvals apply per call), without taking over
 * the editor or the chat.
 */
export function useCompare(model: UseChatModelResult, bridge: Pick<UseChatBridgeResult, "runQuiet" | "handlers" | "stopRun">): UseCompareResult {
  // Until the person edits the lanes, they follow the chat's model (code and classic with it).
  const [custom, setLanes] = useState<LaneChoice[] | undefined>(undefined);
  const lanes = useMemo<LaneChoice[]>(
    () =>
      custom ?? [
        { toolMode: "code", provider: model.provider, modelId: model.modelId },
        { toolMode: "classic", provider: model.provider, modelId: model.modelId },
      ],
    [custom, model.provider, model.modelId],
  );
  const [results, setResults] = useState<readonly LaneResult[]>([]);
  const task = usePageTask(bridge.stopRun);

  const run = useCallback(
    (prompt: string) => {
      if (prompt.trim() === "") return;
      const runners: LaneRunner[] = lanes.map((lane, i) => {
        let hostCalls = 0;
        return {
          spec: {
            id: String(i + 1),
            toolMode: lane.toolMode,
            label: `${lane.toolMode} · ${lane.provider === "demo" ? "demo model" : `${providerInfo(lane.provider).label} ${lane.modelId}`}`,
          },
          modelStep: httpModelStep({ body: () => model.requestExtrasFor(lane) }),
          hostCalls: () => hostCalls,
          handlers: handlersForMode(lane.toolMode, {
            runCode: async (code) => {
              const result = await bridge.runQuiet(code, "compare");
              hostCalls += result.stats.hostCalls;
              return result;
            },
            searchTools: bridge.handlers.searchTools,
            ...(bridge.handlers.callTools ? { callTools: bridge.handlers.callTools } : {}),
          }),
        };
      });
      task.start((signal) =>
        runCompare(prompt, runners, { policy: { maxSteps: model.settings.maxSteps, returnDirectly: false }, onChange: setResults, abortSignal: signal }),
      );
    },
    [lanes, model, bridge, task],
  );

  return { lanes, setLanes, results, running: task.running, run, stop: task.stop };
}
