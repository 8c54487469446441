"use client";

import { errorResult, NO_RUN_STATS } from "@/lib/sandbox/errors";
import { useCallback, useEffect, useRef, useState } from "react";
import { useStore } from "@/components/hooks/use-store";
import { RunController } from "@/lib/sandbox/run-controller";
import { createSandboxWorker } from "@/lib/sandbox/browser/create-browser-worker";
import { errorLocation, type RunView, type RunViewAction } from "@/lib/timeline/run-view";
import type { CallInfo, CallRecordsAction } from "@/lib/timeline/call-records";
import { defaultFrameClock, FrameQueue } from "@/lib/timeline/frame-queue";
import { LiveRunStore, type LiveRun } from "@/lib/timeline/live-run-store";
import type { RunObserver } from "@/lib/timeline/run-observer";
import type { HostFunctions, RunRequest, RunResult, SandboxLimits } from "@/lib/sandbox/types";

/** Builds a run's host functions; `report` ties what the host learns about a call to its timeline row. */
export type PrepareHost = (report: (callId: number, info: CallInfo) => void) => HostFunctions;

export interface UseSandboxRunResult {
  /** The current run's view and call records; read it with useStore where it is shown. */
  live: LiveRunStore;
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

interface StartedController {
  controller: RunController;
  ready: Promise<void>;
}

function startController(): StartedController {
  const controller = new RunController({ createWorker: createSandboxWorker });
  // Warm the worker up so the first run does not pay for WASM start-up.
  const ready = controller.warmUp();
  ready.catch(() => undefined);
  return { controller, ready };
}

/**
 * The page's sandbox worker starts when this module loads in the browser, before React hydrates,
 * so the worker's start-up overlaps the page's own instead of following it; the first
 * useSandboxRun to mount adopts it (a later mount starts its own).
 */
let early: StartedController | undefined = typeof window === "undefined" || typeof Worker === "undefined" ? undefined : startController();

/** An observer (the timeline recorder) must never break a run. */
function notify(call: () => void): void {
  try {
    call();
  } catch {
    // ignored on purpose
  }
}

/**
 * How often a streaming run re-renders the page: 20 times a second reads as live, keeps the
 * timeline within 100 ms of each call's end, and leaves the main thread to the calls.
 */
const RENDER_INTERVAL_MS = 50;

/**
 * Resolves in a task queued after the render React has scheduled for the updates made so far: a
 * sync update renders in a microtask, a default one in a task React's scheduler has already
 * posted, and messages posted later are delivered later.
 */
function afterRender(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

function refused(message: string): RunResult {
  return errorResult({ kind: "busy", message });
}

/** Runs code in the sandbox worker and keeps the output panel's and the timeline's state. One run at a time. */
export function useSandboxRun(): UseSandboxRunResult {
  const [live] = useState(() => new LiveRunStore());
  const [ready, setReady] = useState(false);
  const controllerRef = useRef<RunController | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);
  // What a run streams reaches the store in one batch per frame, at most every RENDER_INTERVAL_MS
  // (lib/timeline/frame-queue.ts); a run's start and end are delivered at once.
  const [queue] = useState(
    () =>
      new FrameQueue<[RunViewAction | undefined, CallRecordsAction]>(
        (items) =>
          live.apply(
            items.flatMap(([view]) => (view ? [view] : [])),
            items.map(([, call]) => call),
          ),
        100,
        defaultFrameClock(),
        RENDER_INTERVAL_MS,
      ),
  );
  useEffect(() => () => queue.dispose(), [queue]);
  // This component re-renders when a run starts or ends, not on every frame of it.
  const running = useStore(live, isRunning, { fallback: false });
  const settled = useStore(live, settledOf, { fallback: IDLE });

  useEffect(() => {
    const { controller, ready } = early ?? startController();
    early = undefined;
    controllerRef.current = controller;
    ready.then(() => setReady(true)).catch(() => setReady(false));
    return () => {
      controllerRef.current = null;
      controller.dispose();
    };
  }, []);

  const [ranCode, setRanCode] = useState<string | undefined>(undefined);

  const run = useCallback(
    (code: string, prepareHost: PrepareHost = NO_HOST, observer?: RunObserver, limits?: Partial<SandboxLimits>): Promise<RunResult> => {
      const controller = controllerRef.current;
      if (!controller) return Promise.resolve(refused("The sandbox is still starting; try again in a moment."));
      if (cancelRef.current) return Promise.resolve(refused("Another run is in progress: stop it first."));
      // The run id is only known once the controller accepts the run; host reports arrive later.
      let runId = "";
      const host = prepareHost((callId, info) => queue.push([undefined, { type: "info", runId, callId, info }]));
      const request: RunRequest = limits && Object.keys(limits).length > 0 ? { code, limits } : { code };
      setRanCode(code);
      // The worker gets the run after the page has rendered its start (the whole Playground
      // re-renders then): otherwise that render sits inside the first tool call, which took
      // 17–23 ms (median) for a call the server answers in 3 (docs/ARCHITECTURE.md, "The live path").
      const handle = controller.run(
        request,
        host,
        (event) => {
          queue.push([
            { type: "event", runId: handle.runId, event },
            { type: "event", runId: handle.runId, event },
          ]);
          notify(() => observer?.onEvent?.(handle.runId, event));
        },
        { after: afterRender() },
      );
      runId = handle.runId;
      notify(() => observer?.onStart?.(runId, request, host));
      cancelRef.current = handle.cancel;
      queue.flush();
      live.apply([{ type: "start", runId, startedAt: Date.now() }], [{ type: "reset", runId }]);
      return handle.result
        .catch((error: unknown): RunResult => ({
          ok: false,
          error: { kind: "runtime", message: `The sandbox failed: ${String(error)}` },
          logs: [],
          stats: NO_RUN_STATS,
        }))
        .then((result) => {
          cancelRef.current = null;
          queue.flush();
          live.apply([{ type: "finish", runId, result }], [{ type: "finish", runId, result }]);
          notify(() => observer?.onFinish?.(runId, result));
          return result;
        });
    },
    [queue, live],
  );

  const stop = useCallback(() => cancelRef.current?.(), []);

  return { live, running, ready, run, stop, errorMarker: errorLocation(settled), ranCode };
}

const IDLE: RunView = { status: "idle" };

/** The view when no run is going, else one constant: a running view changes every frame. */
function settledView(view: RunView): RunView {
  return view.status === "running" ? IDLE : view;
}

const isRunning = (run: LiveRun) => run.view.status === "running";
const settledOf = (run: LiveRun) => settledView(run.view);
