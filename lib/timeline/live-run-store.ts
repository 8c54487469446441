/**
 * The current run as the page shows it (the output panel's view and the timeline's records),
 * held outside React so only the panels that show it re-render while a run streams: with the
 * state in the playground's top component, every frame of a 1 000-call run re-rendered the
 * whole page (chat, servers, editor). A store (lib/state/store.ts); framework-free.
 */
import { Store } from "../state/store";
import { EMPTY_CALL_RECORDS, reduceCallRecords, type CallRecordsAction, type CallRecordsState } from "./call-records";
import { reduceRunView, type RunView, type RunViewAction } from "./run-view";

export interface LiveRun {
  view: RunView;
  calls: CallRecordsState;
}

export class LiveRunStore extends Store<LiveRun> {
  constructor() {
    super({ view: { status: "idle" }, calls: EMPTY_CALL_RECORDS });
  }

  /** Applies actions to the view and the records, then tells the listeners once (if anything changed). */
  apply(viewActions: readonly RunViewAction[], callActions: readonly CallRecordsAction[]): void {
    const current = this.snapshot();
    const view = viewActions.reduce(reduceRunView, current.view);
    const calls = callActions.reduce(reduceCallRecords, current.calls);
    if (view === current.view && calls === current.calls) return;
    this.set({ view, calls });
  }

  /** Puts back what the store showed before (an eval's or a comparison's run, over: the editor's run again). */
  restore(previous: LiveRun): void {
    if (previous !== this.snapshot()) this.set(previous);
  }
}
