/**
 * The code-mode server's skills published as MCP skills (SEP-2640; docs/benchmarks.md, "The
 * code-mode MCP server"): a client of the v2 SDK lists them and reads each file with its digest
 * and size checked by the SDK's SkillsClient; the SKILL.md tells an agent how to call the skill;
 * a skill changed on disk is published with a new digest.
 */
import path from "node:path";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import type { Skill } from "@/lib/skills/skill";
import { skillsToFolder } from "@/lib/skills/skill-file";
import { skillMarkdown } from "@/lib/codemode-mcp/published-skills";
import { codeModeHarness, HARNESS_TOKEN } from "./fixtures";

const AT = "2026-11-28T00:00:00.000Z";
const greet: Skill = {
  name: "greet",
  description: 'Greets someone through the lab\'s echo: "hello <who>".',
  inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"], additionalProperties: false },
  outputSchema: { type: "object", properties: { said: {} }, required: ["said"] },
  code: `const said = await lab.echo({ message: "hello " + who });\nreturn { said };`,
  destructive: false,
  tests: [
    {
      name: "ada",
      input: { who: "Ada" },
      calls: [
        { namespace: "lab", name: "echo", server: "lab", tool: "echo", args: { message: "hello Ada" }, outcome: { ok: true, value: { message: "hello Ada" } } },
      ],
      expected: { ok: true, value: { said: { message: "hello Ada" } } },
    },
  ],
  createdAt: AT,
  updatedAt: AT,
};

function writeFolder(skills: readonly Skill[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-published-"));
  for (const file of skillsToFolder(skills)) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.text);
  }
  return dir;
}

const harness = codeModeHarness();

async function skillsOf(url: string): Promise<{ client: Client; skills: SkillsClient }> {
  const client = new Client({ name: "skills-reader", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${HARNESS_TOKEN}` } } }));
  return { client, skills: new SkillsClient(client) };
}

describe("skills published over MCP", () => {
  it("SKILL.md: Agent Skills frontmatter, how to call it, its input, output, calls and tests", () => {
    const text = skillMarkdown(greet);
    expect(text.startsWith(`---\nname: greet\ndescription: "Greets someone through the lab's echo: \\"hello <who>\\"."\n---\n`)).toBe(true);
    expect(text).toContain("`const result = await skills.greet(input);`");
    expect(text).toContain("as a tool of its own: `greet`");
    expect(text).toContain('"who": {');
    expect(text).toContain("- `lab.echo`");
    expect(text).toContain('- ada: input `{"who":"Ada"}`');
  });

  it("a client lists the skills and reads every file, each digest and size checked; a skill changed on disk gets a new digest", async () => {
    const { url } = await harness.serve({ skills: writeFolder([greet]) });
    const { client, skills } = await skillsOf(url);
    try {
      expect(skills.supported).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.frontmatter.name)).toEqual(["greet"]);
      const [skill] = listing.skills;
      if (!skill || skill.resources === "dynamic") throw new Error("expected a listed skill with its files");
      expect(skill.uri).toBe("skill://greet/SKILL.md");
      expect(skill.resources.map((r) => r.uri).sort()).toEqual(["skill://greet/SKILL.md", "skill://greet/code.js", "skill://greet/tests.json"]);
      const markdown = await skills.read(skill);
      expect(markdown.verified).toBe(true);
      expect(markdown.body).toContain("skills.greet(input)");
      const code = await skills.read(skill, "skill://greet/code.js");
      expect(code.verified).toBe(true);
      expect(code.text).toBe(`${greet.code}\n`);
      const before = skill.resources.find((r) => r.uri === "skill://greet/code.js")?.digest;

      const changed = await harness.serve({ skills: writeFolder([{ ...greet, code: `return { said: "hi " + who };` }]) });
      const other = await skillsOf(changed.url);
      try {
        const [again] = (await other.skills.list()).skills;
        const after = again && again.resources !== "dynamic" ? again.resources.find((r) => r.uri === "skill://greet/code.js")?.digest : undefined;
        expect(after).toBeDefined();
        expect(after).not.toBe(before);
      } finally {
        await other.client.close();
      }
    } finally {
      await client.close();
    }
  });

  it("a server without skills does not offer the extension", async () => {
    const { url } = await harness.serve({});
    const { client, skills } = await skillsOf(url);
    try {
      expect(skills.supported).toBe(false);
    } finally {
      await client.close();
    }
  });
});
