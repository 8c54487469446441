/**
 * Reading the skills a server publishes, through the Skills extension's client
 * (`@modelcontextprotocol/client/ext/skills`), in one module lib/mcp/sdk.ts loads when a person
 * first opens a server's published skills, not with the page (docs/mcp-client.md, "Skills a
 * server publishes").
 */
import type { Client, RequestOptions } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import type { PublishedSkill, PublishedSkillFile } from "./published-skills";

/** What live-connection.ts asks of a server's published skills. */
export interface PublishedSkillsReader {
  list(options: RequestOptions): Promise<{ skills: PublishedSkill[]; invalid: number }>;
  /** One file of a skill (its SKILL.md by default), its size and digest checked against the listing. */
  read(skillUri: string, fileUri: string | undefined, options: RequestOptions): Promise<PublishedSkillFile>;
}

export function publishedSkillsReader(client: Client): PublishedSkillsReader {
  const reader = new SkillsClient(client);
  return {
    async list(options) {
      const listing = await reader.list({}, options);
      return {
        skills: listing.skills.map((skill) => ({
          uri: skill.uri,
          name: skill.frontmatter.name,
          description: skill.frontmatter.description,
          files: skill.resources === "dynamic" ? "dynamic" : skill.resources.map(({ uri, size }) => ({ uri, size })),
        })),
        invalid: listing.invalid.length,
      };
    },
    async read(skillUri, fileUri, options) {
      const { skill } = await reader.get(skillUri, options);
      const file = await reader.read(skill, fileUri, options);
      return { uri: file.uri, text: file.text ?? `(${file.bytes.byteLength} bytes that are not text)`, verified: file.verified };
    },
  };
}
