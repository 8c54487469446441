"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { SESSION_KEY, type CodeHistoryEntry } from "@/lib/model/session-snapshot";
import { restoreSavedSession, sessionToSave } from "@/lib/playground/saved-session";
import type { ChatSession } from "@/lib/model/chat-session";
import { readShareFromLocation } from "@/lib/share/browser/location";
import { idbStore, type KeyValueStore } from "@/lib/storage/browser/idb-store";
import type { HistoryEntry } from "@/lib/timeline/history";
import type { RunRecord } from "@/lib/timeline/run-record";
import type { RunSource } from "@/lib/timeline/history";

/** Writes wait this long after the last change, so a streaming answer is saved once it settles. */
const SAVE_DELAY_MS = 800;

export interface SessionParts {
  /** The conversation: followed by subscribing, so its streaming never re-renders the page. */
  session: ChatSession;
  runs: readonly HistoryEntry[];
  addRun: (record: RunRecord, source?: RunSource) => void;
  clearRuns: () => void;
  codeHistory: readonly CodeHistoryEntry[];
  restoreCodeHistory: (entries: readonly CodeHistoryEntry[]) => void;
}

export interface UseSessionPersistenceResult {
  /** True once the saved session (if any) was restored; saving starts then. */
  restored: boolean;
  /** Runs left out of the last save to stay under the size cap. */
  droppedRuns: number;
  /** Empties the conversation, the runs and the code history, here and in storage. */
  clear: () => Promise<void>;
}

/**
 * Keeps the session across reloads in this browser's IndexedDB: the conversation, the runs
 * (whole records: replay and compare still work) and the code history (lib/model/session-snapshot.ts).
 * A page opened from a shared link keeps the link's conversation rather than the saved one.
 */
export function useSessionPersistence(parts: SessionParts): UseSessionPersistenceResult {
  const [store] = useState<KeyValueStore | undefined>(() => (typeof window === "undefined" ? undefined : idbStore()));
  const [restored, setRestored] = useState(false);
  const [droppedRuns, setDroppedRuns] = useState(0);
  const latest = useRef(parts);
  useEffect(() => {
    latest.current = parts;
  });

  useEffect(() => {
    let cancelled = false;
    const done = () => {
      if (!cancelled) setRestored(true);
    };
    if (!store) {
      done();
      return;
    }
    store.get(SESSION_KEY).then(
      (value) => {
        if (cancelled) return;
        const { session, addRun, restoreCodeHistory } = latest.current;
        restoreSavedSession(
          value,
          { restoreConversation: (messages) => void session.restore(messages), addRun, restoreCodeHistory },
          { restoreConversation: readShareFromLocation(window.location).kind === "none" },
        );
        done();
      },
      () => done(),
    );
    return () => {
      cancelled = true;
    };
  }, [store]);

  const { session, runs, codeHistory } = parts;
  useEffect(() => {
    if (!store || !restored) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      const { snapshot, droppedRuns: dropped } = sessionToSave({ messages: session.snapshot().messages, runs, codeHistory });
      setDroppedRuns(dropped);
      // A full or blocked store costs the saved session, never the page.
      store.set(SESSION_KEY, snapshot).catch(() => undefined);
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    };
    schedule();
    let messages = session.snapshot().messages;
    const unsubscribe = session.subscribe(() => {
      const next = session.snapshot().messages;
      if (next === messages) return;
      messages = next;
      schedule();
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store, restored, session, runs, codeHistory]);

  const clear = useCallback(async () => {
    const { session, clearRuns, restoreCodeHistory } = latest.current;
    await session.clear();
    clearRuns();
    restoreCodeHistory([]);
    await store?.del(SESSION_KEY).catch(() => undefined);
  }, [store]);

  return { restored, droppedRuns, clear };
}
