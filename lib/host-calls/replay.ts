/**
 * Deterministic replay: host functions that answer the guest's tool calls from a recorded run
 * instead of the servers. Run the same code against them and it gets the same results, so it
 * returns the same value, without contacting anything.
 *
 * Matching. A guest call matches a recorded call with the same namespace, function and
 * arguments (stable JSON of the redacted arguments, since the record holds redacted ones).
 * Calls are taken in recorded order: the next unused recorded call is tried first, then the
 * first unused one further on with the same key. The look-ahead matters because call *start*
 * order is deterministic in QuickJS (Promise.all starts its calls in code order; see the
 * tests), but a call made after an await depends on which earlier call finished first, and
 * replayed results come back at once rather than at the servers' pace.
 *
 * Divergence: a call with no unused recorded counterpart. "stop" throws
 * `Replay diverged at call N (expected X, got Y)` in the guest, and every later call throws too;
 * "live" sends that call and every later one to the live host functions (once the run went
 * its own way, recorded answers no longer describe the world it talks to).
 *
 * Records are redacted, so a value under a secret-looking key replays as "[redacted]". Matching
 * still holds when the code passes such a value back (a page token): live arguments go through
 * the recorder's own redaction (redactDeep) before they are compared.
 */
import type { HostFunction, HostFunctions } from "../sandbox/types";
import type { CallInfo } from "../timeline/call-records";
import { callLabel, recordedCalls, recordStart, type RecordedCall, type RunRecord } from "../timeline/run-record";
import { define, ownFunction, safely } from "./host-table";
import { redactDeep } from "../secrets/scrub";
import { canonicalJson as stableJson } from "../text/canonical-json";
import { clip } from "../text/display";

/** A replay that left the recording. */
export interface Divergence {
  /** 1-based number of the guest's call (its callId). */
  callNumber: number;
  /** The recorded call replay expected next, or undefined when the recording had no more calls. */
  expected: RecordedCall | undefined;
  actual: { namespace: string; name: string; args: unknown };
  message: string;
}

/** How a replay behaves. */
export interface ReplayOptions {
  onMismatch: "stop" | "live";
  /** Required for "live": the host functions a diverged call goes to. */
  live?: HostFunctions;
  onDivergence?: (divergence: Divergence) => void;
  /** Marks each call's source (replay / live) on the timeline. */
  onInfo?: (callId: number, info: CallInfo) => void;
  /** "recorded" waits each call's recorded duration, so completion order mirrors the recording. */
  timing?: "instant" | "recorded";
}

/** Thrown in the guest when a "stop" replay diverges. */
export class ReplayDivergedError extends Error {
  readonly code = "replay-diverged";
  constructor(readonly divergence: Divergence) {
    super(divergence.message);
    this.name = "ReplayDivergedError";
  }
}

interface Candidate {
  call: RecordedCall;
  key: string;
  used: boolean;
}

/** Host functions for the recorded run's namespaces that answer from the recording (see the file comment). */
export function createReplayHost(recorded: RunRecord, options: ReplayOptions): HostFunctions {
  if (options.onMismatch === "live" && !options.live) throw new Error('Replay with onMismatch "live" needs live host functions');
  const candidates: Candidate[] = recordedCalls(recorded).map((call) => ({ call, key: keyOf(call.namespace, call.name, call.args), used: false }));
  // Per key, the recorded positions in order: a look-ahead is a queue pop, not a scan (10 000 calls).
  const byKey = new Map<string, { positions: number[]; head: number }>();
  candidates.forEach((candidate, i) => {
    const queue = byKey.get(candidate.key);
    if (queue) queue.positions.push(i);
    else byKey.set(candidate.key, { positions: [i], head: 0 });
  });
  let cursor = 0;
  let diverged: Divergence | undefined;

  const nextUnused = (): Candidate | undefined => {
    while (cursor < candidates.length && candidates[cursor]?.used) cursor++;
    return candidates[cursor];
  };
  const take = (key: string): RecordedCall | undefined => {
    const queue = byKey.get(key);
    while (queue && queue.head < queue.positions.length) {
      const candidate = candidates[queue.positions[queue.head++] ?? -1];
      if (!candidate || candidate.used) continue;
      candidate.used = true;
      return candidate.call;
    }
    return undefined;
  };

  const report = (callId: number, info: CallInfo): void => safely(options.onInfo, callId, info);

  const fnFor =
    (namespace: string, name: string): HostFunction =>
    async (args, signal, call) => {
      const goLive = (): Promise<unknown> => {
        report(call.callId, { source: "live" });
        const liveFn = ownFunction(options.live, namespace, name);
        if (!liveFn) throw new Error(`Unknown tool ${namespace}.${name} on the live servers`);
        return liveFn(args, signal, call);
      };
      if (diverged) {
        if (options.onMismatch === "live") return goLive();
        // The first divergence explains every later refusal, so later calls repeat its message.
        throw new ReplayDivergedError(diverged);
      }
      const match = take(keyOf(namespace, name, args));
      if (!match) {
        const expected = nextUnused()?.call;
        diverged = divergence(call.callId, expected, { namespace, name, args });
        safely(options.onDivergence, diverged);
        if (options.onMismatch === "live") return goLive();
        throw new ReplayDivergedError(diverged);
      }
      report(call.callId, { source: "replay", server: match.server, tool: match.tool });
      if (options.timing === "recorded" && match.end !== undefined) await wait(match.end - match.start, signal);
      return answer(match);
    };

  const api = apiOf(recorded, options.live);
  const host: HostFunctions = {};
  for (const [namespace, names] of Object.entries(api)) {
    const fns: Record<string, HostFunction> = {};
    for (const name of names) define(fns, name, fnFor(namespace, name));
    define(host, namespace, fns);
  }
  return host;
}

function answer(call: RecordedCall): unknown {
  const { outcome } = call;
  switch (outcome.kind) {
    case "value":
      // A copy: the engine serialises it, but a shared object must never leak between replays.
      return outcome.value === undefined ? undefined : structuredClone(outcome.value);
    case "error":
      throw new Error(outcome.error);
    case "truncated":
      throw new Error(
        `Replay cannot answer call ${call.callId} (${callLabel(call)}): its result (${outcome.truncated.chars} characters) was too large to record`,
      );
    case "pending":
      throw new Error(`Replay cannot answer call ${call.callId} (${callLabel(call)}): the recorded run ended before it returned`);
  }
}

function divergence(callNumber: number, expected: RecordedCall | undefined, actual: Divergence["actual"]): Divergence {
  const want = expected ? describeCall(expected.namespace, expected.name, expected.args) : "no more calls";
  const got = describeCall(actual.namespace, actual.name, actual.args);
  return { callNumber, expected, actual, message: `Replay diverged at call ${callNumber} (expected ${want}, got ${got})` };
}

function describeCall(namespace: string, name: string, args: unknown): string {
  return `${namespace}.${name}(${clip(args === undefined ? "" : stableJson(args), 160)})`;
}

function keyOf(namespace: string, name: string, args: unknown): string {
  return `${namespace}\u0000${name}\u0000${args === undefined ? "" : stableJson(redactDeep(args))}`;
}

/** The functions to offer: those the recorded guest saw, those it called, and (for "live") the live ones. */
function apiOf(recorded: RunRecord, live: HostFunctions | undefined): Record<string, string[]> {
  const api = new Map<string, Set<string>>();
  const add = (namespace: string, name: string) => {
    const names = api.get(namespace) ?? new Set<string>();
    names.add(name);
    api.set(namespace, names);
  };
  for (const [namespace, names] of Object.entries(recordStart(recorded)?.api ?? {})) for (const name of names) add(namespace, name);
  for (const call of recordedCalls(recorded)) add(call.namespace, call.name);
  for (const [namespace, fns] of Object.entries(live ?? {})) for (const name of Object.keys(fns)) add(namespace, name);
  return Object.fromEntries([...api].map(([namespace, names]) => [namespace, [...names]]));
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("cancelled"));
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("cancelled"))), { once: true });
  });
}
