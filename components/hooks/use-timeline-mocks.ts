"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { RunController } from "@/lib/sandbox/run-controller";
import { createSandboxWorker } from "@/lib/sandbox/browser/create-browser-worker";
import type { MockTable, ScriptRunner, ToolMock } from "@/lib/host-calls/mocks";

/** The person's mock tools and the sandbox their scripts run in. */
export interface UseTimelineMocksResult {
  mocks: MockTable;
  /** Sets (or, with undefined, removes) the mock of namespace.fn. */
  setMock: (namespace: string, fn: string, mock: ToolMock | undefined) => void;
  clear: () => void;
  /** Runs a script mock in a second sandbox worker (the main one is busy with the run that called it). */
  runScript: ScriptRunner;
}

/** Keeps mocks for this session and a lazily started worker for script mocks. */
export function useTimelineMocks(): UseTimelineMocksResult {
  const [mocks, setMocks] = useState<MockTable>({});
  const controllerRef = useRef<RunController | null>(null);

  useEffect(
    () => () => {
      controllerRef.current?.dispose();
      controllerRef.current = null;
    },
    [],
  );

  const setMock = useCallback((namespace: string, fn: string, mock: ToolMock | undefined) => {
    setMocks((current) => {
      const table = { ...(Object.hasOwn(current, namespace) ? current[namespace] : {}) };
      if (mock) Object.defineProperty(table, fn, { value: mock, enumerable: true, writable: true, configurable: true });
      else delete table[fn];
      const next = { ...current };
      if (Object.keys(table).length > 0) Object.defineProperty(next, namespace, { value: table, enumerable: true, writable: true, configurable: true });
      else delete next[namespace];
      return next;
    });
  }, []);

  const clear = useCallback(() => setMocks({}), []);

  const runScript = useCallback<ScriptRunner>((request, signal) => {
    // Started on first use: most sessions never write a script mock, and a worker costs memory.
    controllerRef.current ??= new RunController({ createWorker: createSandboxWorker });
    const handle = controllerRef.current.run(request, {});
    signal.addEventListener("abort", handle.cancel, { once: true });
    return handle.result.finally(() => signal.removeEventListener("abort", handle.cancel));
  }, []);

  return useMemo(() => ({ mocks, setMock, clear, runScript }), [mocks, setMock, clear, runScript]);
}
