/**
 * The error family of the stdio bridge routes. Same JSON body as McpRouteError
 * (`{ error: { code, message, cause? } }`) so the browser reads both the same way; a class of
 * its own because McpRouteError's codes are closed over the demo and proxy surfaces.
 * Messages never carry env values: callers pass text through `scrubSecrets` first.
 */
import { REDACTED } from "./redact";

const STATUS = {
  bad_request: 400,
  refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  too_many: 429,
  start_failed: 502,
  exited: 502,
} as const;

/** Stable error codes, `type:stdio`. */
export type StdioBridgeErrorCode = `${keyof typeof STATUS}:stdio`;

/** Why a child could not start or stopped, for `start_failed:stdio` and `exited:stdio`. */
export type StdioFailureCause = "command_not_found" | "not_executable" | "cwd_not_found" | "spawn_error" | "exited";

/** A bridge failure with a stable code, a message for a person and an optional machine cause. */
export class StdioBridgeError extends Error {
  override readonly name = "StdioBridgeError";

  constructor(
    readonly code: StdioBridgeErrorCode,
    message: string,
    readonly causeKind?: StdioFailureCause,
  ) {
    super(message);
  }

  /** HTTP status derived from the code's type. */
  get status(): number {
    return STATUS[this.code.split(":")[0] as keyof typeof STATUS];
  }

  /** The JSON error response; never cached, since it may describe local processes. */
  toResponse(headers?: HeadersInit): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.causeKind ? { cause: this.causeKind } : {}) } };
    const out = new Headers(headers);
    out.set("content-type", "application/json");
    out.set("cache-control", "no-store");
    return new Response(JSON.stringify(body), { status: this.status, headers: out });
  }
}

// Shorter values ("1", "on", "dev") are not secrets and replacing them would garble the text.
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of the given secret values (a child's env) with "[redacted]".
 * Applied to anything echoed back: a child may print its own configuration to stderr.
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  const values = [...new Set(secrets)].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const value of values) out = out.split(value).join(REDACTED);
  return out;
}

/** The facts `describeExit` needs: how it ended, what was run, what it printed, which values are secret. */
export interface ExitFacts {
  exit: { code: number | null; signal: string | null; spawnError?: string };
  command: string;
  /** stderr tail (and stray stdout lines) of the child. */
  output: string;
  secrets: Iterable<string>;
  /** True when the child ended during its start-up window. */
  atStart: boolean;
}

const OUTPUT_IN_MESSAGE_CHARS = 2_000;

/** The error for a child that failed to spawn or ended: the errno or exit status plus its output, env values scrubbed. */
export function describeExit(facts: ExitFacts): StdioBridgeError {
  const { exit, command } = facts;
  const code = facts.atStart ? "start_failed:stdio" : "exited:stdio";
  let message: string;
  let cause: StdioFailureCause;
  if (exit.spawnError === "ENOENT") {
    message = `Command not found: "${command}". Is it installed, and on the PATH the app was started with?`;
    cause = "command_not_found";
  } else if (exit.spawnError === "EACCES") {
    message = `"${command}" is not executable (permission denied)`;
    cause = "not_executable";
  } else if (exit.spawnError !== undefined) {
    message = `Could not start "${command}" (${exit.spawnError})`;
    cause = "spawn_error";
  } else {
    const how = exit.code !== null ? `with exit code ${exit.code}` : `on signal ${exit.signal ?? "unknown"}`;
    const output = facts.output.trim();
    const shown = output.length > OUTPUT_IN_MESSAGE_CHARS ? `…${output.slice(-OUTPUT_IN_MESSAGE_CHARS)}` : output;
    message = `The stdio server "${command}" exited ${how}${facts.atStart ? " right after starting" : ""}.`;
    message += shown === "" ? " It printed nothing to stderr." : ` Its stderr:\n${shown}`;
    cause = "exited";
  }
  return new StdioBridgeError(code, scrubSecrets(message, facts.secrets), cause);
}
