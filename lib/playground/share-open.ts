/**
 * What opening a share does to the page, as plain functions over the page's stores (the
 * targets), so it is written once and tested in Node: the share's recorded runs join the run
 * history, parsed once, oldest first, as the shared conversation's; its code goes into the
 * editor; its limits (already clamped when the link was decoded) are adopted; its conversation
 * is restored. Nothing runs: a link never starts anything by itself (docs/deploying.md,
 * "Security"). Pure.
 */
import { toRestorableMessages } from "../model/restore-messages";
import type { CodeModeUIMessage } from "../model/types";
import type { ShareState } from "../share/schema";
import type { RunSource } from "../timeline/history";
import { runRecordSchema } from "../timeline/run-file-schema";
import { recordStart, type RunRecord } from "../timeline/run-record";
import type { Skill } from "../skills/skill";
import { parseSkillsFile, SKILLS_FILE_FORMAT, SKILLS_FILE_VERSION } from "../skills/skill-file";

/** The page's stores, as opening a share changes them. */
export interface ShareTargets {
  addRun(record: RunRecord, source?: RunSource): void;
  setCode(code: string): void;
  /** The shared code's Inputs (the editor's `data` text). */
  setData?(data: string): void;
  adoptLimits(limits: unknown): void;
  restoreConversation(messages: CodeModeUIMessage[]): void;
  /** Holds the share's skills for review (lib/playground/skill-store.ts): they run nothing until trusted. */
  importSkills?(skills: readonly Skill[]): void;
}

/** A shared run as a record, or undefined when it is not one (an older or damaged share). */
export function sharedRun(run: unknown): RunRecord | undefined {
  const parsed = runRecordSchema.safeParse(run);
  return parsed.success ? parsed.data : undefined;
}

/** Applies an opened share to the page; says how many runs joined and how many were left out. */
export function applyShare(state: ShareState, targets: ShareTargets): { runs: number; leftOut: number; skillsRefused: string[] } {
  let runs = 0;
  // Newest first in the share; the history adds in order, so oldest first here.
  for (const run of [...state.runs].reverse()) {
    const record = sharedRun(run);
    if (!record) continue;
    targets.addRun(record, "chat");
    runs += 1;
  }
  if (state.code !== undefined) targets.setCode(state.code);
  if (state.inputs !== undefined) targets.setData?.(state.inputs);
  if (state.limits) targets.adoptLimits(state.limits);
  if (state.messages && state.messages.length > 0) targets.restoreConversation(toRestorableMessages(state.messages));
  // Skills are read as strictly as a skills file; a link that holds a bad one imports none of them.
  let skillsRefused: string[] = [];
  if (state.skills && state.skills.length > 0) {
    const read = parseSkillsFile(JSON.stringify({ format: SKILLS_FILE_FORMAT, version: SKILLS_FILE_VERSION, skills: state.skills }));
    if (read.ok) targets.importSkills?.(read.skills);
    else skillsRefused = read.errors;
  }
  return { runs, leftOut: state.runs.length - runs, skillsRefused };
}

/**
 * Readies a shared run for an offline replay: it is in the history and its code in the editor.
 * Returns the record the replay answers from, or undefined when the run is not one.
 */
export function readySharedReplay(run: unknown, targets: Pick<ShareTargets, "addRun" | "setCode">): RunRecord | undefined {
  const record = sharedRun(run);
  if (!record) return undefined;
  targets.addRun(record);
  const code = recordStart(record)?.code;
  if (code !== undefined) targets.setCode(code);
  return record;
}
