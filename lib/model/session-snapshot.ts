/**
 * The working session a reload must not lose: the conversation, the session's runs (whole
 * records, so replay and compare still work) and the code history. Saved as one snapshot in
 * this browser's IndexedDB (lib/playground/session-keeper.ts), capped in size by
 * dropping the oldest runs first. Secrets are not in it: records are redacted when recorded,
 * and keys and server secrets live in their own stores. Pure.
 */
import { RUN_SOURCES, type RunSource } from "../timeline/history";
import { runRecordSchema } from "../timeline/run-file-schema";
import type { RunRecord } from "../timeline/run-record";
import { toRestorableMessages } from "./restore-messages";
import type { CodeModeUIMessage } from "./types";

export const SESSION_KEY = "session";
export const SESSION_VERSION = 1;
/** About 20 MB of JSON text; past it the oldest runs are left out. */
export const SESSION_MAX_CHARS = 20_000_000;

/** One entry of the editor's code history. */
export interface CodeHistoryEntry {
  toolCallId: string;
  code: string;
  at: number;
}

export interface SessionSnapshot {
  version: typeof SESSION_VERSION;
  savedAt: string;
  messages: CodeModeUIMessage[];
  /** Newest first, as the history keeps them. */
  runs: RunRecord[];
  /** Where each run came from, by run id (a share carries the conversation's runs by default). */
  runSources?: Record<string, RunSource>;
  codeHistory: CodeHistoryEntry[];
}

/** The snapshot within `maxChars` of JSON, dropping the oldest runs first; says how many were dropped. */
export function capSession(snapshot: SessionSnapshot, maxChars = SESSION_MAX_CHARS): { snapshot: SessionSnapshot; droppedRuns: number } {
  let runs = snapshot.runs;
  const size = (s: SessionSnapshot) => JSON.stringify(s).length;
  let current = snapshot;
  while (runs.length > 0 && size(current) > maxChars) {
    runs = runs.slice(0, -1);
    current = { ...snapshot, runs };
  }
  return { snapshot: current, droppedRuns: snapshot.runs.length - runs.length };
}

function isEntry(value: unknown): value is CodeHistoryEntry {
  const v = value as CodeHistoryEntry | null;
  return typeof v === "object" && v !== null && typeof v.toolCallId === "string" && typeof v.code === "string" && typeof v.at === "number";
}

/** Reads a stored snapshot (anything: another version, a damaged store); what does not check out is left out. */
export function parseSession(value: unknown): SessionSnapshot | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<Record<keyof SessionSnapshot, unknown>>;
  if (v.version !== SESSION_VERSION) return undefined;
  const runs: RunRecord[] = [];
  for (const run of Array.isArray(v.runs) ? v.runs : []) {
    const parsed = runRecordSchema.safeParse(run);
    if (parsed.success) runs.push(parsed.data);
  }
  const sources = typeof v.runSources === "object" && v.runSources !== null ? (v.runSources as Record<string, unknown>) : {};
  const isSource = (value: unknown): value is RunSource => typeof value === "string" && (RUN_SOURCES as readonly string[]).includes(value);
  const runSources: Record<string, RunSource> = {};
  for (const run of runs) {
    const source = sources[run.id];
    if (isSource(source)) runSources[run.id] = source;
  }
  return {
    version: SESSION_VERSION,
    savedAt: typeof v.savedAt === "string" ? v.savedAt : "",
    messages: toRestorableMessages(Array.isArray(v.messages) ? v.messages : []),
    runs,
    runSources,
    codeHistory: (Array.isArray(v.codeHistory) ? v.codeHistory : []).filter(isEntry),
  };
}

/** "the conversation (4 messages), 3 runs and 2 code history entries": what Clear session removes. */
export function describeSession(parts: { messages: number; runs: number; codeHistory: number }): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `the conversation (${n(parts.messages, "message", "messages")}), ${n(parts.runs, "run", "runs")} and ${n(parts.codeHistory, "code history entry", "code history entries")}`;
}
