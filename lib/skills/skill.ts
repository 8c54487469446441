/**
 * A skill (docs/agents.md, "Skills"): a program that worked, kept as a typed tool. Its
 * inputs are the program's `data` globals, its tests the runs it was saved from (each call's
 * recorded answer and the value it returned). Skills are tools of one namespace, `skills`, so the
 * catalog declares them like any server's tools, programs call them and the model sees them.
 * Pure: what a skill is, its tool definition, the pseudo-server the catalog reads.
 */
import type { JsonSchema, ServerTools, ToolDefinition } from "../codemode/types";
import { sanitiseIdentifier } from "../codemode/names";
import { isRecord } from "../text/json-value";

/** The namespace skills are called through (`skills.cheapest_carrier({...})`); no server takes it (lib/codemode/names.ts). */
export const SKILLS_NAMESPACE = "skills";

/** A skill's name: its function name in the namespace, so an identifier a person can read. */
export const SKILL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** One recorded call of a skill's test: what the code asked and what it was answered. */
export interface SkillTestCall {
  /** The names the code used. */
  namespace: string;
  name: string;
  /** The server and tool behind them when recorded. */
  server: string;
  tool: string;
  /** Absent when the code passed none. */
  args?: unknown;
  outcome: { ok: true; value?: unknown } | { ok: false; error: string };
}

/** A test: the inputs, every inner call's recorded answer, and what the skill returned. */
export interface SkillTest {
  name: string;
  input: Record<string, unknown>;
  calls: SkillTestCall[];
  expected: { ok: true; value?: unknown } | { ok: false; error: string };
}

/** A skill as kept, exported and offered as a tool. */
export interface Skill {
  name: string;
  description: string;
  /** An object schema: its properties are the `data` globals the code reads. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** The program: a function body (top-level await and return), as in the editor. */
  code: string;
  /** Some inner call goes to a destructive tool, so calling the skill may change things. */
  destructive: boolean;
  tests: SkillTest[];
  createdAt: string;
  updatedAt: string;
}

/** Why a name cannot be a skill's, or undefined when it can. */
export function skillNameProblem(name: string): string | undefined {
  if (!SKILL_NAME_PATTERN.test(name)) return "A skill's name is its function name: letters, digits and _, not starting with a digit, at most 64 characters.";
  // The typed API would rename a reserved word ("delete" → "delete_"), and an object's own names are not for tables.
  if (sanitiseIdentifier(name) !== name || name.startsWith("__") || name in Object.prototype) return `"${name}" is a reserved name; choose another.`;
  return undefined;
}

/** The skill as an MCP tool definition: what the catalog declares, the Tools view lists and the code-mode server offers. */
export function skillTool(skill: Skill): ToolDefinition {
  return {
    name: skill.name,
    description: skill.description,
    inputSchema: skill.inputSchema,
    ...(skill.outputSchema ? { outputSchema: skill.outputSchema } : {}),
    annotations: { title: skill.name, destructiveHint: skill.destructive, readOnlyHint: false, openWorldHint: true },
  };
}

/** The skills as the catalog's pseudo-server (its namespace is `skills` exactly), or undefined when there are none. */
export function skillsServer(skills: readonly Skill[]): ServerTools | undefined {
  if (skills.length === 0) return undefined;
  return { name: SKILLS_NAMESPACE, namespace: SKILLS_NAMESPACE, tools: skills.map(skillTool) };
}

/** Whether a schema is an object schema whose properties can be globals. */
export function isInputSchema(schema: JsonSchema | undefined): schema is Record<string, unknown> {
  return isRecord(schema) && (schema.type === "object" || schema.type === undefined);
}
