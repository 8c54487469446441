"use client";

import { useCallback, useState } from "react";
import { addToHistory, removeFromHistory, type HistoryEntry, type RunSource } from "@/lib/timeline/history";
import { exportRunFile, parseRunFile, runFileName, type RunFileError } from "@/lib/timeline/run-file";
import type { RunRecord } from "@/lib/timeline/run-record";
import { otlpTraces, runRecordSpan } from "@/lib/timeline/otlp";

/** Starts a download of a JSON text. */
function saveJson(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** This session's recorded runs, and saving and loading run files. */
export interface UseTimelineHistoryResult {
  history: readonly HistoryEntry[];
  /** Adds (or replaces, by id) a run; `source` says where it came from (default: the editor). */
  add: (record: RunRecord, source?: RunSource) => void;
  remove: (id: string) => void;
  clear: () => void;
  /** Reads a run file into the history; resolves with the record, or why the file was refused. */
  importFile: (file: File) => Promise<{ record: RunRecord } | { error: RunFileError }>;
  /** Saves a run as a .json file (a download). */
  download: (record: RunRecord) => void;
  /** Saves a run as an OpenTelemetry trace (OTLP JSON; no arguments or results). */
  downloadTrace: (record: RunRecord) => void;
}

/** Keeps the session's runs in memory (bounded by MAX_HISTORY); nothing is stored or sent. */
export function useTimelineHistory(): UseTimelineHistoryResult {
  const [history, setHistory] = useState<readonly HistoryEntry[]>([]);

  const add = useCallback((record: RunRecord, source?: RunSource) => setHistory((current) => addToHistory(current, record, source)), []);
  const remove = useCallback((id: string) => setHistory((current) => removeFromHistory(current, id)), []);
  const clear = useCallback(() => setHistory([]), []);

  const importFile = useCallback(async (file: File) => {
    const parsed = parseRunFile(await file.text());
    if (!parsed.ok) return { error: parsed.error };
    setHistory((current) => addToHistory(current, parsed.record));
    return { record: parsed.record };
  }, []);

  const download = useCallback((record: RunRecord) => saveJson(exportRunFile(record), runFileName(record)), []);
  const downloadTrace = useCallback(
    (record: RunRecord) => saveJson(JSON.stringify(otlpTraces([runRecordSpan(record)]), null, 2), runFileName(record).replace(/\.json$/, ".otlp.json")),
    [],
  );

  return { history, add, remove, clear, importFile, download, downloadTrace };
}
