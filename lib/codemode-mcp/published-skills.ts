/**
 * The code-mode server's skills published as MCP skills (the Skills extension, SEP-2640,
 * `io.modelcontextprotocol/skills`): each skill a `skill://<name>/SKILL.md` whose frontmatter
 * follows the Agent Skills format (name, description) and whose body tells an agent how to call
 * it, with its program (`code.js`) and tests (`tests.json`) as supporting files. The v2 server
 * SDK's `SkillCatalog` serves them (`skills/list`, `skills/get`, the `skill://` resources, each
 * file with its SHA-256 digest and size); this module only writes the files
 * (docs/benchmarks.md, "The code-mode MCP server").
 */
import { memorySkillFiles, SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import type { Skill } from "../skills/skill";

/** YAML's double-quoted scalar is JSON's string syntax: safe for any description. */
const yamlString = (text: string) => JSON.stringify(text);

/** The servers and tools a skill's tests recorded it calling, "lab.echo, store.get_cart". */
function callsOf(skill: Skill): string[] {
  return [...new Set(skill.tests.flatMap((test) => test.calls.map((call) => `${call.server}.${call.tool}`)))].sort();
}

/** The SKILL.md of one skill: how an agent calls it, its input and output, what it calls, its tests. */
export function skillMarkdown(skill: Skill): string {
  const calls = callsOf(skill);
  const lines = [
    "---",
    `name: ${skill.name}`,
    `description: ${yamlString(skill.description)}`,
    "---",
    "",
    `# ${skill.name}`,
    "",
    skill.description,
    "",
    "A tested program that runs on this code-mode MCP server. Call it in either way:",
    "",
    `- as a tool of its own: \`${skill.name}\`, with the input below;`,
    `- inside a program given to \`execute_code\`: \`const result = await skills.${skill.name}(input);\`.`,
    "",
    skill.destructive
      ? "It makes a call that may change things (a tool marked destructive): the server's policy decides whether it runs, and it may ask you first."
      : "None of the calls it makes is marked destructive.",
    "",
    "## Input",
    "",
    "```json",
    JSON.stringify(skill.inputSchema, null, 2),
    "```",
    "",
  ];
  if (skill.outputSchema) lines.push("## Output", "", "```json", JSON.stringify(skill.outputSchema, null, 2), "```", "");
  if (calls.length > 0) lines.push("## What it calls", "", ...calls.map((call) => `- \`${call}\``), "");
  lines.push("## Tests", "");
  if (skill.tests.length === 0) lines.push("No tests yet.", "");
  else
    lines.push(
      ...skill.tests.map((test) => `- ${test.name}: input \`${JSON.stringify(test.input)}\``),
      "",
      "`tests.json` holds each test with the calls it recorded.",
      "",
    );
  lines.push("## Files", "", "- `code.js`: the program (a function body; its input's properties are globals).", "- `tests.json`: its tests.", "");
  return lines.join("\n");
}

/** Every file the catalog publishes, by path under `skill://`. */
export function skillFiles(skills: readonly Skill[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const skill of skills) {
    files[`${skill.name}/SKILL.md`] = skillMarkdown(skill);
    files[`${skill.name}/code.js`] = skill.code.endsWith("\n") ? skill.code : `${skill.code}\n`;
    files[`${skill.name}/tests.json`] = `${JSON.stringify(skill.tests, null, 2)}\n`;
  }
  return files;
}

/**
 * The catalog of `skills`, or undefined when there are none. Problems the SDK finds (a name
 * outside the Agent Skills rules, say) are reported to `onWarning`; the skill is still served.
 */
export async function publishSkills(skills: readonly Skill[], onWarning: (message: string) => void = () => undefined): Promise<SkillCatalog | undefined> {
  if (skills.length === 0) return undefined;
  return SkillCatalog.load(memorySkillFiles(skillFiles(skills)), {
    onWarning: (warning) => onWarning(`${warning.path}: ${warning.message}`),
    // Skills change only when the server restarts: clients may keep the list for a minute.
    cacheHint: { ttlMs: 60_000, cacheScope: "private" },
  });
}
