/** Shared helpers for the timeline tests: record a real QuickJS run (runInNode) with a RunRecorder attached. */
import { hostApiOf } from "@/lib/sandbox/host-api";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunction, HostFunctions, RunResult, SandboxLimits } from "@/lib/sandbox/types";
import { RunRecorder, type HostReport } from "@/lib/timeline/recorder";
import type { RunRecord } from "@/lib/timeline/run-record";

/** Short limits so a failing run ends fast. */
export const FAST: Partial<SandboxLimits> = { cpuMs: 1_000, wallMs: 5_000, callTimeoutMs: 2_000 };

let nextRun = 1;

/** Runs code against host functions (built with the recorder's report hook) and returns the result and record. */
export async function recordRun(
  code: string,
  makeHost: (report: (callId: number, info: HostReport) => void) => HostFunctions,
  options: { limits?: Partial<SandboxLimits>; id?: string; replayOf?: string; data?: Record<string, unknown> } = {},
): Promise<{ result: RunResult; record: RunRecord }> {
  // Host functions are built before the recorder knows the api they offer, so reports go through a holder.
  const holder: { recorder?: RunRecorder } = {};
  const host = makeHost((callId, info) => holder.recorder?.onCallInfo(callId, info));
  const limits = { ...FAST, ...options.limits };
  const recorder = (holder.recorder = new RunRecorder({
    id: options.id ?? `run-${nextRun++}`,
    code,
    limits,
    api: hostApiOf(host),
    ...(options.replayOf ? { replayOf: options.replayOf } : {}),
    ...(options.data ? { data: options.data } : {}),
  }));
  const result = await runInNode({ code, limits, ...(options.data ? { data: options.data } : {}) }, host, { onEvent: (event) => recorder.onEvent(event) });
  return { result, record: recorder.finish(result) };
}

/** A value result's value, or a failed test. */
export function valueOf(result: RunResult): unknown {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `check()` holds, looking every 10 ms for up to `ms`; throws naming `what` if it never does. */
export async function until(check: () => boolean, what = "the condition", ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A fake server: `fn(args)` after a delay from `delayOf(args)`, counting calls. */
export function fakeTool(
  fn: (args: Record<string, unknown>) => unknown,
  delayOf: (args: Record<string, unknown>) => number = () => 0,
): HostFunction & { calls: unknown[] } {
  const calls: unknown[] = [];
  const tool = async (args: unknown) => {
    calls.push(args);
    const a = (args ?? {}) as Record<string, unknown>;
    await sleep(delayOf(a));
    return fn(a);
  };
  return Object.assign(tool, { calls });
}
