/**
 * Which recorded runs a share carries unless the person says otherwise: the shared
 * conversation's runs and the run in view, never eval runs or agents' runs (those only when
 * ticked). A person shares what they see, not whatever happens to be in the session's history.
 */
import type { RunSource } from "../timeline/history";

/** A run the Share dialog offers: its id and where it came from; newest first. */
export interface RunChoice {
  id: string;
  source: RunSource;
}

/** At most this many of the conversation's runs by default (the newest). */
export const DEFAULT_CONVERSATION_RUNS = 5;

/** The run in view: the newest the page made for the conversation or the editor. */
export function runInView(runs: readonly RunChoice[]): string | undefined {
  return runs.find((run) => run.source === "chat" || run.source === "editor")?.id;
}

/** The ids a share carries by default: the conversation's newest runs, and the run in view. */
export function defaultSharedRuns(runs: readonly RunChoice[]): string[] {
  const chosen = new Set(
    runs
      .filter((run) => run.source === "chat")
      .slice(0, DEFAULT_CONVERSATION_RUNS)
      .map((run) => run.id),
  );
  const inView = runInView(runs);
  if (inView !== undefined) chosen.add(inView);
  return runs.filter((run) => chosen.has(run.id)).map((run) => run.id);
}
