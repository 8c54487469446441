import { expect } from "vitest";
import { createEngine, type SandboxEngine } from "@/lib/sandbox/engine";
import { callHostFor, hostApiOf } from "@/lib/sandbox/host-api";
import { loadNodeModule } from "@/lib/sandbox/node/node-engine";
import type { ErrorKind, HostFunctions, RunEvent, RunRequest, RunResult, SandboxError, SandboxLimits } from "@/lib/sandbox/types";

/** Short limits so failing runs end fast; tests widen one limit at a time. */
export const FAST: Partial<SandboxLimits> = { cpuMs: 500, wallMs: 3_000, callTimeoutMs: 1_000 };

/** A release-build engine over one module shared by a test file. */
export function nodeEngine(): SandboxEngine {
  const module = loadNodeModule("release");
  return createEngine(() => module);
}

export interface Ran {
  result: RunResult;
  events: RunEvent[];
}

/** Runs code against host functions and records the events. */
export async function run(
  engine: SandboxEngine,
  code: string,
  options: { host?: HostFunctions; limits?: Partial<SandboxLimits>; data?: Record<string, unknown>; signal?: AbortSignal } = {},
): Promise<Ran> {
  const events: RunEvent[] = [];
  const host = options.host ?? {};
  const request: RunRequest = { code, limits: { ...FAST, ...options.limits }, data: options.data };
  const result = await engine.run(request, callHostFor(host), {
    hostApi: hostApiOf(host),
    signal: options.signal,
    onEvent: (event) => events.push(event),
  });
  return { result, events };
}

/** The value of an ok result (fails the test with the error otherwise). */
export function valueOf(result: RunResult): unknown {
  if (!result.ok) expect.fail(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

/** The error of a failed result, checked to be of `kind`. */
export function errorOf(result: RunResult, kind: ErrorKind): SandboxError {
  if (result.ok) expect.fail(`expected a ${kind} error, got ok: ${JSON.stringify(result.value)}`);
  expect(result.error.kind, result.error.message).toBe(kind);
  return result.error;
}

/** A promise and its resolvers, for host functions the test settles by hand. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
