/**
 * Run files: a RunRecord as versioned JSON, to save, attach to a bug report, or load back into
 * the timeline. Export redacts once more (a record built by hand or loaded from elsewhere is
 * held to the same rule as a recorded one); import checks the file with zod and refuses a
 * corrupt or foreign file with an error that says what is wrong. Pure.
 */
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, type RunRecord } from "./run-record";
import { runFileHeaderSchema, runRecordSchema } from "./run-file-schema";
import { redactDeep, scrubText } from "../secrets/scrub";
import { messageOf } from "../text/error-message";

/** Why a file was refused; stable codes for tests and UI. */
export type RunFileErrorCode = "too-large" | "not-json" | "not-a-run-file" | "unsupported-version" | "invalid";

/** A refused file: a code, and a message for the person. */
export interface RunFileError {
  code: RunFileErrorCode;
  message: string;
}

/** Files larger than this are refused before parsing (a 10 000-call run is a few MB). */
export const MAX_RUN_FILE_CHARS = 100 * 1024 * 1024;

/** The run as file text (compact JSON; secrets redacted). */
export function exportRunFile(record: RunRecord): string {
  const events = record.events.map((event) => {
    if (event.type !== "start" || event.code === undefined) return redactDeep(event);
    // Code is scrubbed as code, so `const token = getToken()` survives and the file can be replayed.
    const { code, ...rest } = event;
    return { ...redactDeep(rest), code: scrubText(code, { code: true }) };
  });
  return JSON.stringify({ ...redactDeep({ ...record, events: [] }), events });
}

/** A file name for the run: `run-<id>-<date>.json`, safe on every file system. */
export function runFileName(record: RunRecord): string {
  const date = record.startedAt.replace(/\.\d+Z$/, "Z").replace(/[:]/g, "-");
  return `run-${record.id}-${date}.json`.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** Reads a run file: the record, or why the file was refused. */
export function parseRunFile(text: string): { ok: true; record: RunRecord } | { ok: false; error: RunFileError } {
  const fail = (code: RunFileErrorCode, message: string) => ({ ok: false as const, error: { code, message } });
  if (text.length > MAX_RUN_FILE_CHARS)
    return fail("too-large", `This file is ${(text.length / 1024 / 1024).toFixed(0)} MB; run files are at most ${MAX_RUN_FILE_CHARS / 1024 / 1024} MB.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail("not-json", `This file is not JSON (${messageOf(error)}).`);
  }
  const header = runFileHeaderSchema.safeParse(data);
  if (!header.success || header.data.format !== RUN_FILE_FORMAT) {
    return fail("not-a-run-file", `This JSON file is not a Code Mode Playground run (it needs "format": "${RUN_FILE_FORMAT}").`);
  }
  if (header.data.version !== RUN_FILE_VERSION) {
    return fail("unsupported-version", `This run file is version ${JSON.stringify(header.data.version)}; this playground reads version ${RUN_FILE_VERSION}.`);
  }
  const parsed = runRecordSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "the file";
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : "";
    return fail("invalid", `This run file is damaged: ${where}: ${issue?.message ?? "invalid"}${more}.`);
  }
  const record: RunRecord = parsed.data;
  const problem = structuralProblem(record);
  return problem ? fail("invalid", `This run file is damaged: ${problem}.`) : { ok: true, record };
}

/** What the schema cannot say: one start, first; each call started once and ended after it started. */
function structuralProblem(record: RunRecord): string | undefined {
  if (record.events[0]?.type !== "start") return "events.0 must be the run's start";
  const started = new Set<number>();
  for (let i = 1; i < record.events.length; i++) {
    const event = record.events[i];
    if (event?.type === "start") return `events.${i} is a second start`;
    if (event?.type === "call-start") {
      if (started.has(event.callId)) return `events.${i} starts call ${event.callId} a second time`;
      started.add(event.callId);
    }
    if (event?.type === "call-end" && !started.has(event.callId)) return `events.${i} ends call ${event.callId}, which never started`;
  }
  return undefined;
}
