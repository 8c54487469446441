/**
 * The current run as the page shows it (the output panel's view and the timeline's records),
 * held outside React so only the panels that show it re-render while a run streams: with the
 * state in the playground's top component, every frame of a 1 000-call run re-rendered the
 * whole page (chat, servers, editor). Framework-free; React reads it with useSyncExternalStore.
 */
import { EMPTY_CALL_RECORDS, reduceCallRecords, type CallRecordsAction, type CallRecordsState } from "./call-records";
import { reduceRunView, type RunView, type RunViewAction } from "./run-view";

export interface LiveRun {
  view: RunView;
  calls: CallRecordsState;
}

export class LiveRunStore {
  private snapshot: LiveRun = { view: { status: "idle" }, calls: EMPTY_CALL_RECORDS };
  private readonly listeners = new Set<() => void>();

  readonly getSnapshot = (): LiveRun => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Applies actions to the view and the records, then tells the listeners once (if anything changed). */
  apply(viewActions: readonly RunViewAction[], callActions: readonly CallRecordsAction[]): void {
    const view = viewActions.reduce(reduceRunView, this.snapshot.view);
    const calls = callActions.reduce(reduceCallRecords, this.snapshot.calls);
    if (view === this.snapshot.view && calls === this.snapshot.calls) return;
    this.snapshot = { view, calls };
    for (const listener of [...this.listeners]) listener();
  }
}
