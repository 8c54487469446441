"use client";

import { useCallback, useRef, useState } from "react";

export interface UsePageTaskResult {
  running: boolean;
  /** Starts `work` with a fresh abort signal; false (and nothing started) while another is running. */
  start: (work: (signal: AbortSignal) => Promise<unknown>) => boolean;
  /** Aborts the task and stops the sandbox run it may be in (or an approval it waits on). */
  stop: () => void;
}

/** One long page task at a time (a compare, an eval suite) that Stop can end, sandbox run included. */
export function usePageTask(stopRun: () => void): UsePageTaskResult {
  const [running, setRunning] = useState(false);
  const aborter = useRef<AbortController | null>(null);
  const start = useCallback((work: (signal: AbortSignal) => Promise<unknown>) => {
    if (aborter.current) return false;
    const controller = new AbortController();
    aborter.current = controller;
    setRunning(true);
    void work(controller.signal).finally(() => {
      aborter.current = null;
      setRunning(false);
    });
    return true;
  }, []);
  const stop = useCallback(() => {
    if (!aborter.current) return;
    aborter.current.abort();
    stopRun();
  }, [stopRun]);
  return { running, start, stop };
}
