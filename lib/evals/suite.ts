/**
 * An eval suite: prompts run through the agent loop in code mode and/or classic mode, against
 * chosen servers and models, a number of times, each run checked by assertions. The file format
 * (JSON or YAML, the same structure) is documented in docs/evals.md; this schema is its
 * definition, and every error names the path of what is wrong (`cases[2].assert[0].maxRequests: ...`).
 */
import * as z from "zod";
import { messageOf } from "../text/error-message";

const toolRef = z.string().regex(/^[^.\s]+\.[^\s]+$/, 'Name a tool as "server.tool".');

/** One check on a run. Exactly one key per assertion object. */
export const assertionSchema = z.union([
  z.strictObject({ toolCalled: toolRef, args: z.record(z.string(), z.unknown()).optional() }),
  z.strictObject({ toolNotCalled: toolRef }),
  z.strictObject({ valueMatches: z.unknown() }),
  z.strictObject({ answerContains: z.string().min(1) }),
  z.strictObject({ answerMatches: z.string().min(1) }),
  z.strictObject({ maxRequests: z.number().int().min(1) }),
  z.strictObject({ maxInputTokens: z.number().int().min(1) }),
  z.strictObject({ noError: z.literal(true) }),
]);

/** A check on a run. */
export type Assertion = z.infer<typeof assertionSchema>;

import { TOOL_MODES, type ToolMode } from "../model/tool-handler";
import { DEFAULT_DECLARATIONS_BUDGET_TOKENS, DISCOVERY_CHOICES } from "../codemode/prompt-form";
export { TOOL_MODES, type ToolMode };

const modelRef = z.string().regex(/^[a-z-]+:.+$/, 'Name a model as "provider:model-id", e.g. "demo:code-mode-demo" or "openai:gpt-5".');

const runSettings = {
  modes: z.array(z.enum(TOOL_MODES)).min(1).optional(),
  models: z.array(modelRef).min(1).optional(),
  runs: z.number().int().min(1).max(100).optional(),
  maxSteps: z.number().int().min(1).max(100).optional(),
};

/**
 * What shape of task a case is, for the report per kind (report.ts): one round of calls classic
 * tool calling makes at once, a chain of calls that need earlier results, a fan-out over what a
 * first call returned, a large catalog, large intermediate results.
 */
export const TASK_KINDS = ["one-round", "chain", "fan-out", "large-catalog", "large-results"] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** One case. */
export const caseSchema = z.strictObject({
  name: z.string().min(1).max(200),
  kind: z.enum(TASK_KINDS).optional(),
  prompt: z.string().min(1).max(20_000),
  /** Server names: the built-in demo servers (shipping, news, store, lab) or servers of the suite's mcpConfig. */
  servers: z.array(z.string().min(1)).min(1),
  assert: z.array(assertionSchema).default([]),
  ...runSettings,
});

/** What a suite run does with calls to destructive tools (docs/evals.md). */
export const DESTRUCTIVE_POLICIES = ["approve", "deny", "mock", "ask"] as const;

/** A suite file. */
export const suiteSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().optional(),
  /**
   * Calls to destructive tools (`destructiveHint: true`): sent without asking ("approve", the
   * default, as `npm run eval` does), refused ("deny"), answered with a stand-in and never sent
   * ("mock"), or put to the person ("ask": the page only; headless it is "deny").
   */
  destructive: z.enum(DESTRUCTIVE_POLICIES).default("approve"),
  /**
   * Code mode's form of the typed API: every declaration until they pass the budget, then tool
   * search ("auto", the default), or pinned (lib/codemode/prompt-form.ts).
   */
  discovery: z.enum(DISCOVERY_CHOICES).default("auto"),
  declarationsBudgetTokens: z.number().int().min(1).max(1_000_000).default(DEFAULT_DECLARATIONS_BUDGET_TOKENS),
  /** An mcpServers file (path relative to the suite) for servers that are not built in. */
  mcpConfig: z.string().optional(),
  defaults: z.strictObject(runSettings).default({}),
  cases: z.array(caseSchema).min(1),
});

export type EvalCase = z.infer<typeof caseSchema>;
export type EvalSuite = z.infer<typeof suiteSchema>;

/** A case with its settings resolved against the suite's defaults. */
export interface PlannedCase extends EvalCase {
  modes: ToolMode[];
  models: string[];
  runs: number;
  maxSteps: number;
}

/** A suite read from text, or what is wrong with it, each error naming the path of its problem. */
export type SuiteParse = { ok: true; suite: EvalSuite } | { ok: false; errors: string[] };

/** Whether suite text is YAML: by its file name, or, without one, when it does not start with "{". */
export function isYamlSuite(text: string, fileName = ""): boolean {
  return /\.ya?ml$/i.test(fileName) || (fileName === "" && !text.trimStart().startsWith("{"));
}

/** Checks a suite already read from JSON or YAML against the schema. */
export function checkSuite(raw: unknown): SuiteParse {
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".").replace(/\.(\d+)/g, "[$1]") : "(suite)"}: ${i.message}`),
    };
  return { ok: true, suite: parsed.data };
}

/** Parses a suite written in JSON. YAML needs its parser, in ./suite-text.ts (`parseSuite`), which reads both. */
export function parseJsonSuite(text: string): SuiteParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`not JSON: ${messageOf(error)}`] };
  }
  return checkSuite(raw);
}

/** Every case with its modes, models, runs and step limit, after the overrides a command line gives. */
export function planCases(suite: EvalSuite, overrides: { modes?: ToolMode[]; models?: string[]; runs?: number } = {}): PlannedCase[] {
  return suite.cases.map((c) => ({
    ...c,
    modes: overrides.modes ?? c.modes ?? suite.defaults.modes ?? ["code", "classic"],
    models: overrides.models ?? c.models ?? suite.defaults.models ?? ["demo:code-mode-demo"],
    runs: overrides.runs ?? c.runs ?? suite.defaults.runs ?? 1,
    maxSteps: c.maxSteps ?? suite.defaults.maxSteps ?? 10,
  }));
}

/** A case made from a test call in the Tools tab: ask the model to make that call, and check it did, with those arguments. */
export function caseFromTestCall(server: string, tool: string, args: Record<string, unknown>): EvalCase {
  return {
    name: `${server}.${tool} test call`,
    prompt: `Call the ${tool} tool of the ${server} server with these arguments, and tell me what it returned: ${JSON.stringify(args)}`,
    servers: [server],
    assert: [{ toolCalled: `${server}.${tool}`, args }, { noError: true }],
  };
}

/** The suite with one more case (a new suite when there is none); a repeated name gets a number. */
export function withCase(suite: EvalSuite | undefined, added: EvalCase): EvalSuite {
  const base: EvalSuite = suite ?? {
    name: "my suite",
    destructive: "approve",
    discovery: "auto",
    declarationsBudgetTokens: DEFAULT_DECLARATIONS_BUDGET_TOKENS,
    defaults: {},
    cases: [],
  };
  const names = new Set(base.cases.map((c) => c.name));
  let name = added.name;
  for (let n = 2; names.has(name); n++) name = `${added.name} (${n})`;
  return { ...base, cases: [...base.cases, { ...added, name }] };
}
