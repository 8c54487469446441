/**
 * How the stdio bridge describes its failures: `scrubSecrets` keeps a child's env values out of
 * every message, `describeExit` turns a spawn failure or an exit into a RouteError
 * (`start_failed:stdio`, `exited:stdio`) with a machine-readable cause.
 */
import { RouteError } from "../../http/route-error";
import { removeSecrets } from "../../secrets/patterns";

/** Why a child could not start or stopped, for `start_failed:stdio` and `exited:stdio`. */
export type StdioFailureCause = "command_not_found" | "not_executable" | "cwd_not_found" | "spawn_error" | "exited";

/** Removes a child's env values (and anything credential-shaped) from text echoed back: a child may print its own configuration to stderr. */
export const scrubSecrets = (text: string, secrets: Iterable<string>): string => removeSecrets(text, secrets);

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
export function describeExit(facts: ExitFacts): RouteError<"stdio"> {
  const { exit, command } = facts;
  const code = facts.atStart ? ("start_failed:stdio" as const) : ("exited:stdio" as const);
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
  return new RouteError(code, scrubSecrets(message, facts.secrets), { cause });
}
