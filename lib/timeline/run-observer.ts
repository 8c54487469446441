/**
 * What a run's driver (components/hooks/use-sandbox-run.ts) tells an observer, so the timeline
 * can record a run it does not drive: the run started (with its host functions), each event,
 * and the result. Types only.
 */
import type { HostFunctions, RunEvent, RunRequest, RunResult } from "../sandbox/types";

/** Observes one run; every method is optional and must not throw (drivers guard anyway). */
export interface RunObserver {
  onStart?(runId: string, request: RunRequest, host: HostFunctions): void;
  onEvent?(runId: string, event: RunEvent): void;
  onFinish?(runId: string, result: RunResult): void;
}
