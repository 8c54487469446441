/**
 * How a shared link names its recorded runs: by the run's title (a prompt, an agent's name) or
 * the first line of its code, with the value it returned or how it failed. Pure; anything that
 * is not a run record gets a plain "run N".
 */
import { clip } from "../text/display";
import { runRecordSchema } from "../timeline/run-file-schema";
import { recordEnd, recordStart } from "../timeline/run-record";

export interface SharedRunLabel {
  label: string;
  /** "→ 42" or "failed: timeout"; undefined for a run without an end. */
  outcome: string | undefined;
}

export function sharedRunLabel(run: unknown, index: number): SharedRunLabel {
  const parsed = runRecordSchema.safeParse(run);
  if (!parsed.success) return { label: `run ${index + 1}`, outcome: undefined };
  const record = parsed.data;
  const firstLine = (recordStart(record)?.code ?? "")
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.startsWith("//"));
  const label = clip(record.title ?? firstLine ?? `run ${index + 1}`, 60);
  const end = recordEnd(record);
  const outcome = end === undefined ? undefined : end.ok ? `→ ${clip(JSON.stringify(end.value) ?? "undefined", 48)}` : `failed: ${end.error.kind}`;
  return { label, outcome };
}
