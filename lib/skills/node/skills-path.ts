/**
 * Reads skills from disk (docs/agents.md, "Skills"): a skills folder (one directory per
 * skill: skill.json, code.js, tests/*.json) or a skills file (skills.json), as the playground
 * exports them. Only those files are read, each refused by its size on disk before it is read
 * (lib/text/node/read-capped.ts) and all within the format's size caps; every fault is
 * reported with its path (lib/skills/skill-file.ts checks what they hold).
 */
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { parseSkillsFile, skillsFileText, skillsFromFolder, skillsToFolder, SKILL_LIMITS, type FolderFile } from "../skill-file";
import type { Skill } from "../skill";
import { readTextCapped } from "../../text/node/read-capped";
import { messageOf } from "../../text/error-message";

/** Reads a folder or a file of skills; throws an Error listing every fault with its path. */
export async function readSkillsPath(path: string): Promise<Skill[]> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new Error(`Cannot read skills at ${path}: ${messageOf(error)}`, { cause: error });
  }
  const read = info.isDirectory()
    ? skillsFromFolder(await folderFiles(path))
    : parseSkillsFile(await readTextCapped(path, SKILL_LIMITS.fileBytes, "a skills file"));
  if (!read.ok) throw new Error(`Skills at ${path} were refused:\n  ${read.errors.join("\n  ")}`);
  return read.skills;
}

/** The skill files of a folder (skill.json, code.js, tests/*.json, one level of directories). */
async function folderFiles(root: string): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  let total = 0;
  const take = async (path: string) => {
    const isCode = path.endsWith("code.js");
    const text = await readTextCapped(path, isCode ? SKILL_LIMITS.codeFileBytes : SKILL_LIMITS.fileBytes, isCode ? "a skill's code.js" : "a skill's file");
    total += text.length;
    if (total > SKILL_LIMITS.totalChars) throw new Error(`Skills at ${root} are larger than ${SKILL_LIMITS.totalChars} characters.`);
    files.push({ path: relative(root, path).split(sep).join("/"), text });
  };
  for (const dir of await readdir(root, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name.startsWith(".")) continue;
    const base = join(root, dir.name);
    for (const entry of await readdir(base, { withFileTypes: true })) {
      if (entry.isFile() && (entry.name === "skill.json" || entry.name === "code.js")) await take(join(base, entry.name));
      if (entry.isDirectory() && entry.name === "tests")
        for (const test of await readdir(join(base, "tests"), { withFileTypes: true }))
          if (test.isFile() && test.name.endsWith(".json")) await take(join(base, "tests", test.name));
    }
  }
  return files;
}

/** Writes skills as a folder (one directory per skill) under `dir`, or as one file when `dir` ends in .json. */
export async function writeSkillsPath(path: string, skills: readonly Skill[]): Promise<string[]> {
  if (path.endsWith(".json")) {
    await writeFile(path, skillsFileText(skills));
    return [path];
  }
  const written: string[] = [];
  for (const file of skillsToFolder(skills)) {
    const target = join(path, ...file.path.split("/"));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text);
    written.push(target);
  }
  return written;
}
