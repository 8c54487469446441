/**
 * The Skills extension's client (`@modelcontextprotocol/client/ext/skills`), in one module
 * lib/mcp/sdk.ts loads when a person first opens a server's published skills, not with the page
 * (docs/ARCHITECTURE.md, "Skills a server publishes").
 */
export { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
