/**
 * The session this browser keeps across reloads (docs/page-state.md, "The page's session"),
 * as plain functions over the page's stores, so the rules are written once and tested in Node:
 * what a save holds (the conversation, the runs with their sources, the code history, capped in
 * size) and what a restore does (runs oldest first with their sources, the code history, and the
 * conversation unless a shared link brought its own). The session keeper
 * (lib/playground/session-keeper.ts) only schedules and stores. Pure.
 */
import { capSession, parseSession, SESSION_VERSION, type CodeHistoryEntry, type SessionSnapshot } from "../model/session-snapshot";
import type { CodeModeUIMessage } from "../model/types";
import type { HistoryEntry, RunSource } from "../timeline/history";
import type { RunRecord } from "../timeline/run-record";

/** What a save reads. */
export interface SessionParts {
  messages: readonly CodeModeUIMessage[];
  /** Newest first, as the history keeps them. */
  runs: ReadonlyArray<Pick<HistoryEntry, "record" | "source">>;
  codeHistory: readonly CodeHistoryEntry[];
}

/** The page's stores, as a restore changes them. */
export interface SessionTargets {
  restoreConversation(messages: CodeModeUIMessage[]): void;
  addRun(record: RunRecord, source?: RunSource): void;
  restoreCodeHistory(entries: readonly CodeHistoryEntry[]): void;
}

/** The snapshot to store, capped in size (the oldest runs go first), and how many runs it left out. */
export function sessionToSave(parts: SessionParts, now: Date = new Date()): { snapshot: SessionSnapshot; droppedRuns: number } {
  return capSession({
    version: SESSION_VERSION,
    savedAt: now.toISOString(),
    messages: [...parts.messages],
    runs: parts.runs.map((entry) => entry.record),
    runSources: Object.fromEntries(parts.runs.map((entry) => [entry.record.id, entry.source])),
    codeHistory: [...parts.codeHistory],
  });
}

/**
 * Restores a stored value into the page; damaged or foreign data restores nothing. A page
 * opened from a shared link keeps the link's conversation (`keepConversation: false` here).
 * Returns whether there was a session to restore.
 */
export function restoreSavedSession(value: unknown, targets: SessionTargets, options: { restoreConversation: boolean }): boolean {
  const saved = parseSession(value);
  if (!saved) return false;
  if (options.restoreConversation && saved.messages.length > 0) targets.restoreConversation(saved.messages);
  for (const run of [...saved.runs].reverse()) targets.addRun(run, saved.runSources?.[run.id]);
  targets.restoreCodeHistory(saved.codeHistory);
  return true;
}
