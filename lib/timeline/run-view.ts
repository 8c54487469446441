import type { LogEntry, RunEvent, RunResult, SandboxError } from "../sandbox/types";

/** What the output panel shows about the current run, built from the run's events. */
export type RunView =
  | { status: "idle" }
  | { status: "running"; runId: string; startedAt: number; logs: LogEntry[]; callsStarted: number; callsEnded: number }
  | { status: "done"; runId: string; result: RunResult };

export type RunViewAction =
  | { type: "start"; runId: string; startedAt: number }
  | { type: "event"; runId: string; event: RunEvent }
  | { type: "finish"; runId: string; result: RunResult };

/** Keeps the live console bounded while a run streams lines; the final result carries the full capped log. */
const MAX_LIVE_LOGS = 2_000;

/** Pure reducer: events for another run than the current one are ignored. */
export function reduceRunView(state: RunView, action: RunViewAction): RunView {
  switch (action.type) {
    case "start":
      return { status: "running", runId: action.runId, startedAt: action.startedAt, logs: [], callsStarted: 0, callsEnded: 0 };
    case "event": {
      if (state.status !== "running" || state.runId !== action.runId) return state;
      const e = action.event;
      if (e.type === "log") {
        const logs = state.logs.length >= MAX_LIVE_LOGS ? [...state.logs.slice(1), e.entry] : [...state.logs, e.entry];
        return { ...state, logs };
      }
      if (e.type === "call-start") return { ...state, callsStarted: state.callsStarted + 1 };
      return { ...state, callsEnded: state.callsEnded + 1 };
    }
    case "finish":
      if (state.status === "running" && state.runId !== action.runId) return state;
      return { status: "done", runId: action.runId, result: action.result };
  }
}

/** Where to mark a failed run's error in the editor, when the error knows its line. */
export function errorLocation(view: RunView): { line: number; column?: number; message: string } | undefined {
  if (view.status !== "done" || view.result.ok) return undefined;
  const error: SandboxError = view.result.error;
  if (error.line === undefined) return undefined;
  const location: { line: number; column?: number; message: string } = {
    line: error.line,
    message: `${error.kind}: ${error.message}`,
  };
  if (error.column !== undefined) location.column = error.column;
  return location;
}

/** A one-word label for the status pill. */
export function statusLabel(view: RunView): string {
  if (view.status === "idle") return "idle";
  if (view.status === "running") return "running";
  return view.result.ok ? "ok" : view.result.error.kind;
}
