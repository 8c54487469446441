/**
 * This session's runs: a bounded list of recorded runs, newest first, each with the summary
 * the history list shows (status, duration, call count). Pure; the hook keeps it in state.
 * Bounded because a 10 000-call record holds a few MB and the session may run code all day.
 */
import { recordEnd, recordedCalls, recordStart, type RunRecord } from "./run-record";

/** What the history list shows about a run. */
export interface RunSummary {
  id: string;
  title?: string;
  startedAt: string;
  /** "ok", the error kind, or "unfinished" for a record without an end. */
  status: string;
  durationMs: number | undefined;
  callCount: number;
  errorCount: number;
  /** Calls answered by a mock or a replay rather than a server. */
  simulatedCount: number;
  codeHash: string;
  replayOf?: string;
}

/**
 * Where a run came from: the chat's conversation (the model's programs and classic rounds), the
 * editor (the person's Run, an imported file), a comparison lane, an eval, or an agent through the
 * code-mode MCP server. A share carries the conversation's runs by default, eval and agent runs
 * only when the person ticks them.
 */
export type RunSource = (typeof RUN_SOURCES)[number];

/** Every RunSource, to check one read from storage. */
export const RUN_SOURCES = ["chat", "editor", "compare", "eval", "agent", "app"] as const;

/** A run in the history. */
export interface HistoryEntry {
  summary: RunSummary;
  record: RunRecord;
  source: RunSource;
}

/** Runs kept per session. */
export const MAX_HISTORY = 20;

/** Summarises a recorded run for the history list. */
export function summariseRun(record: RunRecord): RunSummary {
  const calls = recordedCalls(record);
  const end = recordEnd(record);
  const start = recordStart(record);
  const summary: RunSummary = {
    id: record.id,
    startedAt: record.startedAt,
    status: end === undefined ? "unfinished" : end.ok ? "ok" : end.error.kind,
    durationMs: end?.stats.wallMs,
    callCount: calls.length,
    errorCount: calls.filter((call) => call.outcome.kind === "error").length,
    simulatedCount: calls.filter((call) => call.info.source === "mock" || call.info.source === "replay").length,
    codeHash: start?.codeHash ?? "",
  };
  if (record.title) summary.title = record.title;
  if (start?.replayOf) summary.replayOf = start.replayOf;
  return summary;
}

/** The groups the history caps apart: the conversation's runs, the editor's, and the rest (evals, comparisons, agents, apps). */
function groupOf(source: RunSource): "chat" | "editor" | "other" {
  return source === "chat" || source === "editor" ? source : "other";
}

/**
 * Adds a run at the front (replacing a run with the same id), keeping at most `max` runs of each
 * group (groupOf): an eval suite never pushes out the editor's runs ("Save as skill…" needs the
 * last good run of the editor's code), and neither pushes out the conversation's, which the chat's
 * "Show run" and a share point at. The oldest of a group over its cap goes.
 */
export function addToHistory(history: readonly HistoryEntry[], record: RunRecord, source: RunSource = "editor", max = MAX_HISTORY): readonly HistoryEntry[] {
  const entry = { summary: summariseRun(record), record, source };
  const cap = Math.max(1, max);
  const kept = { chat: 0, editor: 0, other: 0 };
  return [entry, ...history.filter((e) => e.record.id !== record.id)].filter((e) => ++kept[groupOf(e.source)] <= cap);
}

/** Removes a run by id. */
export function removeFromHistory(history: readonly HistoryEntry[], id: string): readonly HistoryEntry[] {
  return history.some((e) => e.record.id === id) ? history.filter((e) => e.record.id !== id) : history;
}
