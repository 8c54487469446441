"use client";

import { useCallback, useState } from "react";
import { RunController } from "@/lib/sandbox/run-controller";
import { createSandboxWorker } from "@/lib/sandbox/browser/create-browser-worker";
import { CompiledModuleShare } from "@/lib/sandbox/compiled-module";
import { runSandboxBench, type SandboxBenchRow } from "@/lib/bench/sandbox-bench";
import { messageOf } from "@/lib/text/error-message";

export interface UseSandboxBenchResult {
  status: "idle" | "running" | "done" | "failed";
  step: string;
  rows: SandboxBenchRow[];
  error: string | undefined;
  start: () => void;
}

/** Runs the sandbox benchmark against real workers in this browser. */
export function useSandboxBench(): UseSandboxBenchResult {
  const [status, setStatus] = useState<UseSandboxBenchResult["status"]>("idle");
  const [step, setStep] = useState("");
  const [rows, setRows] = useState<SandboxBenchRow[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);

  const start = useCallback(() => {
    setStatus("running");
    setError(undefined);
    runSandboxBench({
      createController: () => new RunController({ createWorker: () => createSandboxWorker() }),
      createColdController: () => new RunController({ createWorker: () => createSandboxWorker(new CompiledModuleShare()) }),
      now: () => performance.now(),
      onProgress: setStep,
    })
      .then((result) => {
        setRows(result);
        setStatus("done");
      })
      .catch((e: unknown) => {
        setError(messageOf(e));
        setStatus("failed");
      });
  }, []);

  return { status, step, rows, error, start };
}
