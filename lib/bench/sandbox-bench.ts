import type { HostFunctions, RunRequest, RunResult } from "../sandbox/types";
import { median } from "../numbers/stats";

/** The part of the run controller a benchmark needs; injected so the same code measures any engine host. */
export interface BenchController {
  run(request: RunRequest, host: HostFunctions): { result: Promise<RunResult> };
  dispose(): void;
}

/** One figure. `median` for timings, `value` for counts. */
export interface SandboxBenchRow {
  name: string;
  median?: number;
  value?: number;
  unit: string;
  note?: string;
}

export interface SandboxBenchOptions {
  createController: () => BenchController;
  /**
   * A controller whose worker compiles the .wasm itself, as a page's first worker does; without it
   * the first-worker row is left out. createController's workers may share the page's compiled module.
   */
  createColdController?: () => BenchController;
  now: () => number;
  /** Called between steps so a page can show progress. */
  onProgress?: (step: string) => void;
  overheadRuns?: number;
}

async function mustRun(controller: BenchController, request: RunRequest, host: HostFunctions = {}): Promise<RunResult> {
  const result = await controller.run(request, host).result;
  if (!result.ok) throw new Error(`benchmark run failed: ${result.error.kind}: ${result.error.message}`);
  return result;
}

const immediate: HostFunctions = { bench: { noop: () => Promise.resolve(1) } };

/** Cold start, run overhead, host-call overhead and compute, measured through a real controller. */
export async function runSandboxBench(options: SandboxBenchOptions): Promise<SandboxBenchRow[]> {
  const { createController, now, onProgress } = options;
  const rows: SandboxBenchRow[] = [];

  onProgress?.("cold start");
  const coldStarts = async (create: () => BenchController) => {
    const colds: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = now();
      const controller = create();
      await mustRun(controller, { code: "return 1" });
      colds.push(now() - t0);
      controller.dispose();
    }
    return median(colds);
  };
  if (options.createColdController)
    rows.push({
      name: "cold start, a page's first worker (worker + WASM compile + first run)",
      median: await coldStarts(options.createColdController),
      unit: "ms",
      note: "5 fresh workers, each compiling the .wasm (from the HTTP cache); target ≤ 80 ms",
    });
  // One worker first, so the page knows its compiled module before the five are timed.
  const warm = createController();
  await mustRun(warm, { code: "return 1" });
  warm.dispose();
  rows.push({
    name: "cold start, a later worker (the page's compiled module)",
    median: await coldStarts(createController),
    unit: "ms",
    note: "5 fresh workers, as after Stop, a timeout or a crash",
  });

  const controller = createController();
  try {
    await mustRun(controller, { code: "return 1" });
    onProgress?.("run overhead");
    const runs = options.overheadRuns ?? 200;
    const overhead: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = now();
      await mustRun(controller, { code: "return 1" });
      overhead.push(now() - t0);
    }
    rows.push({ name: "run overhead: `return 1` end to end", median: median(overhead), unit: "ms", note: `${runs} runs; target ≤ 3 ms` });

    onProgress?.("host calls");
    const parallel: number[] = [];
    const sequential: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = now();
      await mustRun(
        controller,
        {
          code: "const xs = []; for (let i = 0; i < 10000; i++) xs.push(bench.noop({ i })); return (await Promise.all(xs)).length",
          limits: { maxCalls: 10_000 },
        },
        immediate,
      );
      parallel.push(((now() - t0) * 1000) / 10_000);
      const t1 = now();
      await mustRun(controller, { code: "let n = 0; for (let i = 0; i < 1000; i++) n += await bench.noop({ i }); return n" }, immediate);
      sequential.push(((now() - t1) * 1000) / 1000);
    }
    rows.push({ name: "host call, 10 000 through Promise.all", median: median(parallel), unit: "µs/call", note: "5 runs; target ≤ 60 µs" });
    rows.push({ name: "host call, 1 000 sequential awaits", median: median(sequential), unit: "µs/call", note: "5 runs" });

    onProgress?.("compute");
    const compute: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = now();
      await mustRun(controller, { code: "let s = 0; for (let i = 0; i < 1e7; i++) s += i; return s" });
      compute.push(now() - t0);
    }
    rows.push({ name: "compute: 10^7-iteration loop", median: median(compute), unit: "ms", note: "3 runs; QuickJS is an interpreter" });
  } finally {
    controller.dispose();
  }
  return rows;
}
