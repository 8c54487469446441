/**
 * The workbench's small stores (docs/page-state.md, "Page state"): whether the sandbox is up,
 * the replay armed for the next run, and the recorded run the timeline shows.
 */
import { Store } from "../state/store";
import type { Divergence } from "../host-calls/replay";
import type { RunRecord } from "../timeline/run-record";

/** The next run replays this recorded run. */
export interface ReplayChoice {
  record: RunRecord;
  onMismatch: "stop" | "live";
}

/** The sandbox as the header and the editor show it. */
export interface SandboxState {
  ready: boolean;
  /** The code of the last run started (an error marker belongs to that text only). */
  ranCode: string | undefined;
}

/** The replay armed for the next run, and where the last replay left its recording. */
export interface ReplayState {
  choice: ReplayChoice | undefined;
  divergence: Divergence | undefined;
}

export class SandboxStore extends Store<SandboxState> {
  update(patch: Partial<SandboxState>): void {
    this.set({ ...this.snapshot(), ...patch });
  }
}

/** The recorded run the timeline's Calls view shows (undefined: the live run). */
export class RunInViewStore extends Store<string | undefined> {
  show(id: string | undefined): void {
    this.set(id);
  }
}

export class ReplayStore extends Store<ReplayState> {
  arm(choice: ReplayChoice | undefined): void {
    this.set({ ...this.snapshot(), choice });
  }
  diverged(divergence: Divergence | undefined): void {
    if (this.snapshot().divergence !== divergence) this.set({ ...this.snapshot(), divergence });
  }
}
