"use client";

import { errorResult, NO_RUN_STATS } from "@/lib/sandbox/errors";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { RunController } from "@/lib/sandbox/run-controller";
import { createSandboxWorker } from "@/lib/sandbox/browser/create-browser-worker";
import { errorLocation, reduceRunView, type RunView } from "@/lib/timeline/run-view";
import { EMPTY_CALL_RECORDS, reduceCallRecords, type CallInfo, type CallRecordsState } from "@/lib/timeline/call-records";
import type { RunObserver } from "@/lib/timeline/run-observer";
import type { HostFunctions, RunRequest, RunResult, SandboxLimits } from "@/lib/sandbox/types";

/** Builds a run's host functions; `report` ties what the host learns about a call to its timeline row. */
export type PrepareHost = (report: (callId: number, info: CallInfo) => void) => HostFunctions;

export interface UseSandboxRunResult {
  state: RunView;
  calls: CallRecordsState;
  running: boolean;
  ready: boolean;
  /** Starts a run and resolves with its result; while another run is going it resolves at once with an error. */
  run: (code: string, prepareHost?: PrepareHost, observer?: RunObserver, limits?: Partial<SandboxLimits>) => Promise<RunResult>;
  stop: () => void;
  /** Where the last run failed, for the editor; `ranCode` is the code it ran (a marker belongs to that text only). */
  errorMarker: ReturnType<typeof errorLocation>;
  ranCode: string | undefined;
}

const NO_HOST: PrepareHost = () => ({});

/** An observer (the timeline recorder) must never break a run. */
function notify(call: () => void): void {
  try {
    call();
  } catch {
    // ignored on purpose
  }
}

function refused(message: string): RunResult {
  return errorResult({ kind: "busy", message });
}

/** Runs code in the sandbox worker and keeps the output panel's and the timeline's state. One run at a time. */
export function useSandboxRun(): UseSandboxRunResult {
  const [state, dispatch] = useReducer(reduceRunView, { status: "idle" } as RunView);
  const [calls, dispatchCalls] = useReducer(reduceCallRecords, EMPTY_CALL_RECORDS);
  const [ready, setReady] = useState(false);
  const controllerRef = useRef<RunController | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    const controller = new RunController({ createWorker: createSandboxWorker });
    controllerRef.current = controller;
    // Warm the worker up so the first run does not pay for WASM start-up.
    controller
      .warmUp()
      .then(() => setReady(true))
      .catch(() => setReady(false));
    return () => {
      controllerRef.current = null;
      controller.dispose();
    };
  }, []);

  const running = state.status === "running";
  const [ranCode, setRanCode] = useState<string | undefined>(undefined);

  const run = useCallback((code: string, prepareHost: PrepareHost = NO_HOST, observer?: RunObserver, limits?: Partial<SandboxLimits>): Promise<RunResult> => {
    const controller = controllerRef.current;
    if (!controller) return Promise.resolve(refused("The sandbox is still starting; try again in a moment."));
    if (cancelRef.current) return Promise.resolve(refused("Another run is in progress: stop it first."));
    // The run id is only known once the controller accepts the run; host reports arrive later.
    let runId = "";
    const host = prepareHost((callId, info) => dispatchCalls({ type: "info", runId, callId, info }));
    const request: RunRequest = limits && Object.keys(limits).length > 0 ? { code, limits } : { code };
    setRanCode(code);
    const handle = controller.run(request, host, (event) => {
      dispatch({ type: "event", runId: handle.runId, event });
      dispatchCalls({ type: "event", runId: handle.runId, event });
      notify(() => observer?.onEvent?.(handle.runId, event));
    });
    runId = handle.runId;
    notify(() => observer?.onStart?.(runId, request, host));
    cancelRef.current = handle.cancel;
    dispatch({ type: "start", runId, startedAt: Date.now() });
    dispatchCalls({ type: "reset", runId });
    return handle.result
      .catch((error: unknown): RunResult => ({
        ok: false,
        error: { kind: "runtime", message: `The sandbox failed: ${String(error)}` },
        logs: [],
        stats: NO_RUN_STATS,
      }))
      .then((result) => {
        cancelRef.current = null;
        dispatch({ type: "finish", runId, result });
        dispatchCalls({ type: "finish", runId, result });
        notify(() => observer?.onFinish?.(runId, result));
        return result;
      });
  }, []);

  const stop = useCallback(() => cancelRef.current?.(), []);

  return { state, calls, running, ready, run, stop, errorMarker: errorLocation(state), ranCode };
}
