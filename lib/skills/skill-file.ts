/**
 * Skills as files (docs/agents.md, "Skills"): one JSON file holding several, or a folder a
 * code review can read, one directory per skill:
 *
 *   cheapest_carrier/skill.json        name, description, schemas, destructive, dates
 *   cheapest_carrier/code.js           the program
 *   cheapest_carrier/tests/<name>.json one test each: input, recorded calls, expected value
 *
 * A file is anyone's to write, so reading one checks everything (shape, names, sizes, that each
 * schema compiles, no two skills with one name) and a refusal names the path of the fault.
 * Writing one removes anything secret-looking a test or the code still holds. Pure.
 */
import * as z from "zod";
import { compileSchema } from "../mcp/validate";
import { redactDeep, scrubText } from "../secrets/scrub";
import { skillNameProblem, SKILL_NAME_PATTERN, type Skill, type SkillTest } from "./skill";
import { messageOf } from "../text/error-message";

/** Names a skills file by what it is, so an unrelated JSON file is refused clearly. */
export const SKILLS_FILE_FORMAT = "code-mode-playground/skills";
/** Names one skill's skill.json in a folder. */
export const SKILL_FILE_FORMAT = "code-mode-playground/skill";
export const SKILLS_FILE_VERSION = 1;

/** Caps on what a file may hold: a skill is a program and a few recorded runs, not a dataset. */
export const SKILL_LIMITS = {
  skills: 200,
  codeChars: 200_000,
  descriptionChars: 4_000,
  tests: 20,
  callsPerTest: 2_000,
  /** Whole file (or folder) in characters. */
  totalChars: 8_000_000,
  /** A code.js on disk, in bytes (UTF-8 takes at most 4 per character): refused by its size before it is read. */
  codeFileBytes: 800_000,
  /** Any other skill file on disk (skill.json, a test, a skills file), in bytes. */
  fileBytes: 32_000_000,
} as const;

const json = z.unknown();
const outcome = z.union([
  z.strictObject({ ok: z.literal(true), value: json.optional() }),
  z.strictObject({ ok: z.literal(false), error: z.string().max(100_000) }),
]);
const identifier = z.string().min(1).max(200);

const callSchema = z.strictObject({
  namespace: identifier,
  name: identifier,
  server: z.string().min(1).max(500),
  tool: z.string().min(1).max(500),
  args: json.optional(),
  outcome,
});

const testSchema = z.strictObject({
  name: z.string().min(1).max(200),
  input: z.record(z.string(), json),
  calls: z.array(callSchema).max(SKILL_LIMITS.callsPerTest),
  expected: outcome,
});

const schemaObject = z.record(z.string(), json);

const headSchema = {
  name: z.string().regex(SKILL_NAME_PATTERN, "a skill's name is an identifier: letters, digits and _, not starting with a digit, at most 64 characters"),
  description: z.string().max(SKILL_LIMITS.descriptionChars),
  inputSchema: schemaObject,
  outputSchema: schemaObject.optional(),
  destructive: z.boolean(),
  createdAt: z.string().max(64),
  updatedAt: z.string().max(64),
};

const skillSchema = z.strictObject({
  ...headSchema,
  code: z.string().min(1).max(SKILL_LIMITS.codeChars),
  tests: z.array(testSchema).max(SKILL_LIMITS.tests),
});

const fileSchema = z.strictObject({
  format: z.literal(SKILLS_FILE_FORMAT, { error: `not a skills file (its "format" is not "${SKILLS_FILE_FORMAT}")` }),
  version: z.literal(SKILLS_FILE_VERSION, { error: `a skills file of another version (this playground reads version ${SKILLS_FILE_VERSION})` }),
  skills: z.array(skillSchema).max(SKILL_LIMITS.skills),
});

const folderHeadSchema = z.strictObject({
  format: z.literal(SKILL_FILE_FORMAT, { error: `not a skill (its "format" is not "${SKILL_FILE_FORMAT}")` }),
  version: z.literal(SKILLS_FILE_VERSION, { error: `a skill of another version (this playground reads version ${SKILLS_FILE_VERSION})` }),
  ...headSchema,
});

/** What reading gives: the skills, or every fault with its path. */
export type SkillsRead = { ok: true; skills: Skill[] } | { ok: false; errors: string[] };

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`)).join("");
}

/** Each issue as "path: message", under the folder file it is in when there is one. */
function zodErrors(error: z.ZodError, file?: string): string[] {
  return error.issues.slice(0, 20).map((issue) => {
    const at = `${pathOf(issue.path) || "(file)"}: ${issue.message}`;
    return file ? `${file}: ${at}` : at;
  });
}

/** The checks zod cannot make: schemas that compile, object input schemas, unique names. */
function semanticErrors(skills: readonly Skill[], pathFor: (index: number, field: string) => string): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  skills.forEach((skill, index) => {
    const at = (field: string) => pathFor(index, field);
    const nameProblem = skillNameProblem(skill.name);
    if (nameProblem) errors.push(`${at("name")}: ${nameProblem}`);
    if (seen.has(skill.name)) errors.push(`${at("name")}: another skill in this file is named "${skill.name}"`);
    seen.add(skill.name);
    if (skill.inputSchema.type !== "object")
      errors.push(`${at("inputSchema")}: must be an object schema (type "object"): its properties are the program's data globals`);
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = skill[key];
      if (schema === undefined) continue;
      const compiled = compileSchema(schema);
      if (!compiled.ok) errors.push(`${at(key)}: ${compiled.message}`);
    }
  });
  return errors;
}

/** Reads a skills file's text (SKILLS_FILE_FORMAT); see the file comment. */
export function parseSkillsFile(text: string): SkillsRead {
  if (text.length > SKILL_LIMITS.totalChars) return { ok: false, errors: [`(file): larger than ${SKILL_LIMITS.totalChars} characters`] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`(file): not JSON: ${messageOf(error)}`] };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error) };
  const skills = parsed.data.skills as Skill[];
  const errors = semanticErrors(skills, (index, field) => `skills[${index}].${field}`);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, skills };
}

/** What goes out: code scrubbed, tests redacted (they were when recorded; a person may have typed a value since). */
function forExport(skill: Skill): Skill {
  return { ...skill, code: scrubText(skill.code, { code: true }), tests: skill.tests.map((test) => redactDeep(test)) };
}

/** The skills as one file's text. */
export function skillsFileText(skills: readonly Skill[]): string {
  return `${JSON.stringify({ format: SKILLS_FILE_FORMAT, version: SKILLS_FILE_VERSION, skills: skills.map(forExport) }, null, 2)}\n`;
}

/** One file of a folder: its path inside the folder ("/"-separated) and its text. */
export interface FolderFile {
  path: string;
  text: string;
}

/** A test's file name: its name made safe for any file system, unique within the skill. */
function testFileName(test: SkillTest, index: number, taken: Set<string>): string {
  const base =
    test.name
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || `test-${index + 1}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return `${name}.json`;
}

/** The skills as a folder's files (see the file comment). */
export function skillsToFolder(skills: readonly Skill[]): FolderFile[] {
  const files: FolderFile[] = [];
  for (const original of skills) {
    const skill = forExport(original);
    const { code, tests, name, description, inputSchema, outputSchema, destructive, createdAt, updatedAt } = skill;
    const head = {
      format: SKILL_FILE_FORMAT,
      version: SKILLS_FILE_VERSION,
      name,
      description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      destructive,
      createdAt,
      updatedAt,
    };
    files.push({ path: `${name}/skill.json`, text: `${JSON.stringify(head, null, 2)}\n` });
    files.push({ path: `${name}/code.js`, text: code.endsWith("\n") ? code : `${code}\n` });
    const taken = new Set<string>();
    tests.forEach((test, index) => files.push({ path: `${name}/tests/${testFileName(test, index, taken)}`, text: `${JSON.stringify(test, null, 2)}\n` }));
  }
  return files;
}

function parseJsonFile(file: FolderFile, errors: string[]): unknown {
  try {
    return JSON.parse(file.text);
  } catch (error) {
    errors.push(`${file.path}: not JSON: ${messageOf(error)}`);
    return undefined;
  }
}

/**
 * Reads a folder's files (paths relative to the folder; a leading folder name common to all, as a
 * browser's directory picker gives, is dropped). Files that are not a skill's are ignored; a
 * skill directory missing skill.json or code.js, or holding a bad file, is refused with its path.
 */
export function skillsFromFolder(input: readonly FolderFile[]): SkillsRead {
  const total = input.reduce((sum, file) => sum + file.text.length, 0);
  if (total > SKILL_LIMITS.totalChars) return { ok: false, errors: [`(folder): larger than ${SKILL_LIMITS.totalChars} characters`] };
  const files = dropCommonRoot(input.map((file) => ({ ...file, path: file.path.replace(/\\/g, "/").replace(/^\.?\//, "") })));
  const byDir = new Map<string, { head?: FolderFile; code?: FolderFile; tests: FolderFile[] }>();
  for (const file of files) {
    const parts = file.path.split("/");
    const dir = parts[0] ?? "";
    const rest = parts.slice(1).join("/");
    const entry = byDir.get(dir) ?? { tests: [] };
    if (rest === "skill.json") entry.head = file;
    else if (rest === "code.js") entry.code = file;
    else if (/^tests\/[^/]+\.json$/.test(rest)) entry.tests.push(file);
    else continue;
    byDir.set(dir, entry);
  }
  const errors: string[] = [];
  const skills: Skill[] = [];
  const dirs = [...byDir.keys()].sort();
  if (dirs.length > SKILL_LIMITS.skills) return { ok: false, errors: [`(folder): more than ${SKILL_LIMITS.skills} skills`] };
  for (const dir of dirs) {
    const entry = byDir.get(dir);
    if (!entry) continue;
    if (!entry.head) {
      errors.push(`${dir}/skill.json: missing (every skill directory has one)`);
      continue;
    }
    if (!entry.code) {
      errors.push(`${dir}/code.js: missing (every skill directory has one)`);
      continue;
    }
    const rawHead = parseJsonFile(entry.head, errors);
    if (rawHead === undefined) continue;
    const head = folderHeadSchema.safeParse(rawHead);
    if (!head.success) {
      errors.push(...zodErrors(head.error, entry.head.path));
      continue;
    }
    if (head.data.name !== dir) errors.push(`${entry.head.path}: its name "${head.data.name}" is not its directory's ("${dir}")`);
    if (entry.tests.length > SKILL_LIMITS.tests) errors.push(`${dir}/tests: more than ${SKILL_LIMITS.tests} tests`);
    const tests: SkillTest[] = [];
    for (const file of entry.tests.sort((a, b) => (a.path < b.path ? -1 : 1)).slice(0, SKILL_LIMITS.tests)) {
      const raw = parseJsonFile(file, errors);
      if (raw === undefined) continue;
      const test = testSchema.safeParse(raw);
      if (test.success) tests.push(test.data);
      else errors.push(...zodErrors(test.error, file.path));
    }
    const code = entry.code.text.replace(/\n$/, "");
    if (code.length === 0 || code.length > SKILL_LIMITS.codeChars)
      errors.push(`${entry.code.path}: must hold a program of 1 to ${SKILL_LIMITS.codeChars} characters`);
    const { format: _format, version: _version, ...rest } = head.data;
    skills.push({ ...rest, code, tests });
  }
  errors.push(...semanticErrors(skills, (index, field) => `${skills[index]?.name ?? index}/skill.json: ${field}`));
  if (errors.length > 0) return { ok: false, errors };
  if (skills.length === 0) return { ok: false, errors: ["(folder): no skill in it (a skill is a directory with skill.json and code.js)"] };
  return { ok: true, skills };
}

/** Drops a first path segment every file shares when no skill file sits right under it. */
function dropCommonRoot(files: FolderFile[]): FolderFile[] {
  const first = files[0]?.path.split("/")[0];
  if (!first || files.some((file) => file.path.split("/")[0] !== first)) return files;
  if (files.some((file) => file.path === `${first}/skill.json` || file.path === `${first}/code.js`)) return files;
  return files.map((file) => ({ ...file, path: file.path.slice(first.length + 1) }));
}
