import { describe, expect, it } from "vitest";
import type { Skill } from "@/lib/skills/skill";
import { parseSkillsFile, skillsFileText, skillsFromFolder, skillsToFolder, SKILLS_FILE_FORMAT, type FolderFile } from "@/lib/skills/skill-file";

const skill: Skill = {
  name: "cheapest_carrier",
  description: "The cheapest carrier within maxDays.",
  inputSchema: { type: "object", properties: { maxDays: { type: "integer" } }, required: ["maxDays"], additionalProperties: false },
  outputSchema: { type: "object", properties: { carrier: { type: "string" } } },
  code: "const { carriers } = await shipping.list_carriers();\nreturn { carrier: carriers[0], maxDays };",
  destructive: false,
  tests: [
    {
      name: "within 5 days",
      input: { maxDays: 5 },
      calls: [
        {
          namespace: "shipping",
          name: "list_carriers",
          server: "shipping",
          tool: "list_carriers",
          args: {},
          outcome: { ok: true, value: { carriers: ["dhl"] } },
        },
      ],
      expected: { ok: true, value: { carrier: "dhl", maxDays: 5 } },
    },
  ],
  createdAt: "2026-11-27T00:00:00.000Z",
  updatedAt: "2026-11-27T00:00:00.000Z",
};

const fileWith = (skills: unknown[]) => JSON.stringify({ format: SKILLS_FILE_FORMAT, version: 1, skills });

describe("a skills file", () => {
  it("round-trips", () => {
    expect(parseSkillsFile(skillsFileText([skill]))).toEqual({ ok: true, skills: [skill] });
  });

  it("removes secrets on the way out", () => {
    const leaky: Skill = {
      ...skill,
      code: `const key = "sk-ant-api03-${"a".repeat(40)}";\nreturn key;`,
      tests: [{ ...skill.tests[0]!, input: { maxDays: 5, apiKey: "hunter2-secret-value" } }],
    };
    const text = skillsFileText([leaky]);
    expect(text).not.toContain("sk-ant-api03");
    expect(text).not.toContain("hunter2");
  });

  it("refuses what is not a skills file, saying so", () => {
    expect(parseSkillsFile("{")).toMatchObject({ ok: false, errors: [expect.stringMatching(/^\(file\): not JSON/)] });
    expect(parseSkillsFile(JSON.stringify({ format: "code-mode-playground/run", version: 1, skills: [] }))).toEqual({
      ok: false,
      errors: [`format: not a skills file (its "format" is not "${SKILLS_FILE_FORMAT}")`],
    });
    expect(parseSkillsFile(JSON.stringify({ format: SKILLS_FILE_FORMAT, version: 2, skills: [] }))).toEqual({
      ok: false,
      errors: ["version: a skills file of another version (this playground reads version 1)"],
    });
  });

  it("names the path of each fault", () => {
    const bad = parseSkillsFile(
      fileWith([
        { ...skill, name: "rm -rf /" },
        { ...skill, tests: [{ ...skill.tests[0], calls: [{ ...skill.tests[0]!.calls[0], namespace: 7 }] }] },
        { ...skill, extra: true },
      ]),
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors).toEqual([
      expect.stringMatching(/^skills\[0\]\.name: a skill's name is an identifier/),
      expect.stringMatching(/^skills\[1\]\.tests\[0\]\.calls\[0\]\.namespace: Invalid input: expected string/),
      expect.stringMatching(/^skills\[2\]: Unrecognized key: "extra"/),
    ]);
  });

  it("refuses schemas that do not compile, input that is not an object, and two skills of one name", () => {
    const bad = parseSkillsFile(
      fileWith([
        { ...skill, inputSchema: { type: "object", properties: { a: { type: 12 } } } },
        { ...skill, name: "list", inputSchema: { type: "array" } },
        { ...skill, name: "list" },
      ]),
    );
    expect(!bad.ok && bad.errors).toEqual([
      expect.stringMatching(/^skills\[0\]\.inputSchema: /),
      'skills[1].inputSchema: must be an object schema (type "object"): its properties are the program\'s data globals',
      'skills[2].name: another skill in this file is named "list"',
    ]);
  });

  it("keeps a hostile __proto__ key as data", () => {
    const text = fileWith([{ ...skill, tests: [{ ...skill.tests[0], input: JSON.parse('{"__proto__": {"polluted": true}}') as unknown }] }]);
    const read = parseSkillsFile(text);
    expect(read.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a file past its caps", () => {
    expect(parseSkillsFile(fileWith([{ ...skill, code: "x".repeat(200_001) }]))).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^skills\[0\]\.code: Too big/)],
    });
    expect(parseSkillsFile(" ".repeat(8_000_001))).toMatchObject({ ok: false, errors: ["(file): larger than 8000000 characters"] });
  });
});

describe("a skills folder", () => {
  it("writes one directory per skill a review can read, and reads it back", () => {
    const files = skillsToFolder([skill]);
    expect(files.map((f) => f.path)).toEqual(["cheapest_carrier/skill.json", "cheapest_carrier/code.js", "cheapest_carrier/tests/within-5-days.json"]);
    expect(files[1]?.text).toBe(`${skill.code}\n`);
    expect(skillsFromFolder(files)).toEqual({ ok: true, skills: [skill] });
    // A browser's directory picker puts the chosen folder's name in front.
    expect(skillsFromFolder(files.map((f) => ({ ...f, path: `my-skills/${f.path}` })))).toEqual({ ok: true, skills: [skill] });
  });

  it("names the file of each fault", () => {
    const files = skillsToFolder([skill]);
    const withBadTest: FolderFile[] = [
      ...files,
      { path: "cheapest_carrier/tests/broken.json", text: '{"name": "b", "input": {}, "calls": "none", "expected": {"ok": true}}' },
    ];
    expect(skillsFromFolder(withBadTest)).toEqual({
      ok: false,
      errors: ["cheapest_carrier/tests/broken.json: calls: Invalid input: expected array, received string"],
    });
    const renamed = files.map((f) => ({ ...f, path: f.path.replace("cheapest_carrier/", "other/") }));
    expect(skillsFromFolder(renamed)).toEqual({ ok: false, errors: ['other/skill.json: its name "cheapest_carrier" is not its directory\'s ("other")'] });
    expect(skillsFromFolder(files.filter((f) => !f.path.endsWith("code.js")))).toEqual({
      ok: false,
      errors: ["cheapest_carrier/code.js: missing (every skill directory has one)"],
    });
    expect(
      skillsFromFolder([
        { path: "a/skill.json", text: "nope" },
        { path: "a/code.js", text: "return 1" },
      ]),
    ).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^a\/skill\.json: not JSON/)],
    });
    expect(skillsFromFolder([{ path: "README.md", text: "hi" }])).toEqual({
      ok: false,
      errors: ["(folder): no skill in it (a skill is a directory with skill.json and code.js)"],
    });
  });
});

describe("skill names", () => {
  it("refuses reserved words and an object's own names", async () => {
    const { skillNameProblem } = await import("@/lib/skills/skill");
    expect(skillNameProblem("cheapest_carrier")).toBeUndefined();
    expect(skillNameProblem("delete")).toBe('"delete" is a reserved name; choose another.');
    expect(skillNameProblem("__proto__")).toBe('"__proto__" is a reserved name; choose another.');
    expect(skillNameProblem("constructor")).toBe('"constructor" is a reserved name; choose another.');
    expect(skillNameProblem("9lives")).toMatch(/^A skill's name is its function name/);
  });

  it("refuses the names of JavaScript's promise and object protocols: a skill named then would make `skills` a thenable", async () => {
    const { skillNameProblem } = await import("@/lib/skills/skill");
    for (const name of ["then", "toJSON", "valueOf", "toString", "prototype"])
      expect(skillNameProblem(name)).toBe(`"${name}" is a reserved name; choose another.`);
  });
});
