"use client";

import { usePage } from "@/components/playground/page-context";
import type { SkillDialogStore, SkillInViewStore, SkillStore } from "@/lib/playground/skill-store";
import type { Skill } from "@/lib/skills/skill";

/** What the skills' views use of the page (docs/page-state.md, "Page state"): its stores and actions, not the page itself. */
export interface UseSkillsResult {
  /** The person's skills: subscribe, save, trust, import, remove, add a test. */
  store: SkillStore;
  /** The skill the Skills tab shows; the Tools view opens one there. */
  inView: SkillInViewStore;
  /** The run the Save as skill dialog is open for. */
  dialog: SkillDialogStore;
  /** Runs a skill against the connected servers; the call shows on the timeline. */
  call: (name: string, input: Record<string, unknown>) => void;
  /** Replays its tests offline. */
  test: (name: string) => void;
  /** Puts its code in the editor, with its first test's inputs as the data. */
  openInEditor: (skill: Skill) => void;
}

/** The page's skills, for the Skills tab, the Save as skill dialog and the links that open them. */
export function useSkills(): UseSkillsResult {
  const { playground } = usePage();
  return {
    store: playground.skills,
    inView: playground.skillInView,
    dialog: playground.skillDialog,
    call: (name, input) => void playground.callSkill(name, input),
    test: (name) => void playground.testSkill(name),
    openInEditor: (skill) => {
      playground.editor.putCode(skill.code, `skill-${skill.name}`);
      playground.editor.setData(JSON.stringify(skill.tests[0]?.input ?? {}, null, 2));
    },
  };
}
