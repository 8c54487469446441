/**
 * Saving a run as a skill (docs/agents.md, "Skills"): what the Save dialog proposes from a
 * recorded run (the inputs' schema from its `data`, the output's from its value, the run as the
 * first test, destructive when a call went to a destructive tool), and the checks before it is
 * kept. Pure: the dialog only shows and edits these.
 */
import type { ServerTools } from "../codemode/types";
import { compileSchema, validateArguments } from "../mcp/validate";
import { recordEnd, recordStart, type RunRecord } from "../timeline/run-record";
import { inferInputSchema, inferSchema } from "./infer-schema";
import { skillNameProblem, SKILLS_NAMESPACE, type Skill, type SkillTest } from "./skill";
import { testFromRun } from "./skill-tests";
import { messageOf } from "../text/error-message";

/** What the dialog starts from. */
export interface SkillDraft {
  code: string;
  inputSchemaText: string;
  outputSchemaText: string;
  test: SkillTest;
  /** Tools of the run's calls that are destructive ("server.tool"). */
  destructiveCalls: string[];
}

/** A draft from a finished run, or why the run cannot be a skill. */
export function draftFromRun(
  record: RunRecord,
  servers: readonly ServerTools[],
  testName: string,
): { ok: true; draft: SkillDraft } | { ok: false; message: string } {
  const start = recordStart(record);
  const end = recordEnd(record);
  if (!start?.code) return { ok: false, message: "That run's code was not kept, so it cannot become a skill." };
  if (!end) return { ok: false, message: "That run has not ended yet." };
  if (!end.ok) return { ok: false, message: `That run failed (${end.error.message}); a skill is saved from a run that worked.` };
  const made = testFromRun(record, testName);
  if (!made.ok) return made;
  const calledSkill = made.test.calls.find((call) => call.namespace === SKILLS_NAMESPACE);
  if (calledSkill)
    return {
      ok: false,
      message: `That program calls ${SKILLS_NAMESPACE}.${calledSkill.name}, and a skill cannot call skills: save the skill's own program instead.`,
    };
  const destructive = new Set<string>();
  for (const call of made.test.calls) {
    const tool = servers.find((s) => s.name === call.server)?.tools.find((t) => t.name === call.tool);
    if (tool?.annotations?.destructiveHint === true) destructive.add(`${call.server}.${call.tool}`);
  }
  return {
    ok: true,
    draft: {
      code: start.code,
      inputSchemaText: JSON.stringify(inferInputSchema([start.data ?? {}]), null, 2),
      outputSchemaText: end.value === undefined ? "" : JSON.stringify(inferSchema([end.value]), null, 2),
      test: made.test,
      destructiveCalls: [...destructive],
    },
  };
}

/** What the person filled in. */
export interface SkillForm {
  name: string;
  description: string;
  inputSchemaText: string;
  outputSchemaText: string;
}

function parseSchema(text: string, label: string): { ok: true; schema: Record<string, unknown> | undefined } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, schema: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${label} is not JSON: ${messageOf(error)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: `${label} must be a JSON Schema object.` };
  const compiled = compileSchema(value);
  if (!compiled.ok) return { ok: false, message: `${label} does not compile: ${compiled.message}` };
  return { ok: true, schema: value as Record<string, unknown> };
}

/** The skill the form describes, or every problem with it (the dialog lists them; nothing is kept until there are none). */
export function skillFromForm(
  form: SkillForm,
  draft: SkillDraft,
): { ok: true; skill: Omit<Skill, "createdAt" | "updatedAt"> } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const name = form.name.trim();
  const nameProblem = skillNameProblem(name);
  if (nameProblem) problems.push(nameProblem);
  if (form.description.trim() === "") problems.push("Describe what the skill does: the model chooses skills by their description.");
  const input = parseSchema(form.inputSchemaText, "The input schema");
  const output = parseSchema(form.outputSchemaText, "The output schema");
  if (!input.ok) problems.push(input.message);
  else if (!input.schema || input.schema.type !== "object")
    problems.push('The input schema must be an object schema (type "object"): its properties are the inputs.');
  else {
    const check = validateArguments(input.schema, draft.test.input);
    if (!check.ok) problems.push(`The run's own inputs do not match the input schema: ${check.message}`);
  }
  if (!output.ok) problems.push(output.message);
  if (problems.length > 0 || !input.ok || !output.ok || !input.schema) return { ok: false, problems };
  return {
    ok: true,
    skill: {
      name,
      description: form.description.trim(),
      inputSchema: input.schema,
      ...(output.schema ? { outputSchema: output.schema } : {}),
      code: draft.code,
      destructive: draft.destructiveCalls.length > 0,
      tests: [draft.test],
    },
  };
}
