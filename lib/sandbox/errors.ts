import type { ErrorKind, LogEntry, RunResult, RunStats, SandboxError } from "./types";

/** A stable code per error kind; `sandbox:config` is for bad usage (limits, options), never a run result. */
export type SandboxErrorCode = `sandbox:${ErrorKind}` | "sandbox:config";

/** A failed run as a throwable: carries the SandboxError that the run result will hold. */
export class SandboxFailure extends Error {
  readonly code: SandboxErrorCode;
  readonly detail: SandboxError;

  constructor(detail: SandboxError) {
    super(detail.message);
    this.name = "SandboxFailure";
    this.code = `sandbox:${detail.kind}`;
    this.detail = detail;
  }
}

/** Bad usage of the sandbox API (invalid limits, a run on a disposed controller): a caller bug. */
export class SandboxConfigError extends Error {
  readonly code: SandboxErrorCode = "sandbox:config";

  constructor(message: string) {
    super(message);
    this.name = "SandboxConfigError";
  }
}

/** Builds a SandboxError, leaving out fields that are undefined (it crosses postMessage and JSON). */
export function sandboxError(kind: ErrorKind, message: string, extra: Omit<Partial<SandboxError>, "kind" | "message"> = {}): SandboxError {
  const error: SandboxError = { kind, message };
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) Object.assign(error, { [key]: value });
  }
  return error;
}

/** Turns anything thrown into plain SandboxError data; unknown throwables get `fallbackKind`. */
export function serializeError(error: unknown, fallbackKind: ErrorKind = "runtime"): SandboxError {
  if (error instanceof SandboxFailure) return { ...error.detail };
  if (error instanceof Error) return sandboxError(fallbackKind, error.message || error.name, { stack: error.stack });
  return sandboxError(fallbackKind, typeof error === "string" ? error : safeString(error));
}

/** The stats of a run that never started. */
export const NO_RUN_STATS: RunStats = Object.freeze({ wallMs: 0, hostCalls: 0, peakInFlight: 0 });

/** A failed RunResult: the one way to build one. */
export function errorResult(error: SandboxError, logs: LogEntry[] = [], stats: RunStats = NO_RUN_STATS): RunResult {
  return { ok: false, error, logs, stats };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
