/** The session's recorded runs (bounded by MAX_HISTORY per kind: lib/timeline/history.ts), kept in memory; persistence saves them (lib/playground/persistence.ts). */
import { Store } from "../state/store";
import { addToHistory, removeFromHistory, type HistoryEntry, type RunSource } from "../timeline/history";
import { parseRunFile, type RunFileError } from "../timeline/run-file";
import type { RunRecord } from "../timeline/run-record";

export class RunHistory extends Store<readonly HistoryEntry[]> {
  constructor() {
    super([]);
  }

  /** Adds (or replaces, by id) a run; `source` says where it came from (default: the editor). */
  add(record: RunRecord, source?: RunSource): void {
    this.set(addToHistory(this.snapshot(), record, source));
  }

  /** Keeps the MCP Apps of a run's calls with its record, in place (they are read after the run ends). */
  attachApps(id: string, apps: Readonly<Record<string, unknown>>): void {
    const entries = this.snapshot();
    if (!entries.some((e) => e.record.id === id)) return;
    this.set(entries.map((e) => (e.record.id === id ? { ...e, record: { ...e.record, apps: { ...e.record.apps, ...apps } } } : e)));
  }

  remove(id: string): void {
    this.set(removeFromHistory(this.snapshot(), id));
  }

  clear(): void {
    this.set([]);
  }

  /** Reads a run file's text into the history: the record, or why the file was refused. */
  importText(text: string): { record: RunRecord } | { error: RunFileError } {
    const parsed = parseRunFile(text);
    if (!parsed.ok) return { error: parsed.error };
    this.add(parsed.record);
    return { record: parsed.record };
  }
}
