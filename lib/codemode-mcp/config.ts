/**
 * The code-mode MCP server's configuration: an ordinary mcp.json (the `mcpServers` file the
 * playground imports and exports) plus an optional `codeMode` section that other clients ignore:
 *
 * ```json
 * { "mcpServers": { ... },
 *   "codeMode": { "destructive": { "store": "ask" }, "declarationsBudgetTokens": 4000,
 *                 "maxConcurrent": 2, "queueLimit": 64, "queueWaitMs": 30000, "taskAfterMs": 2000, "limits": { "wallMs": 30000 },
 *                 "callsInFlight": { "memory": 1 },
 *                 "mocks": { "store": { "place_order": { "kind": "value", "value": { "ok": true } } } },
 *                 "skills": "./skills" } }
 * ```
 * Pure: parsing and defaults only; errors name their path.
 */
import { DEFAULT_DECLARATIONS_BUDGET_TOKENS } from "../codemode/prompt-form";
import * as z from "zod";
import { configValue, importMcpServersConfig } from "../mcp/config";
import type { ServerConfig } from "../mcp/types";
import type { SandboxLimits } from "../sandbox/types";
import type { MockTable } from "../host-calls/mocks";

/** What happens when a program calls a tool that declares `destructiveHint: true`. */
export type DestructivePolicy = "refuse" | "allow" | "ask";

export interface CodeModeOptions {
  /** Per server name; servers not listed get `defaultDestructive`. */
  destructive: Record<string, DestructivePolicy>;
  defaultDestructive: DestructivePolicy;
  /** The declarations go into execute_code's description while they fit this many tokens. */
  declarationsBudgetTokens: number;
  /** Programs running at once (threads); default the machine's CPU count. */
  maxConcurrent: number;
  /** Programs waiting for a thread before callers get a busy error. */
  queueLimit: number;
  /** The longest a program waits for a thread before its caller gets a busy error. */
  queueWaitMs: number;
  /** A program still running after this long answers a client that takes tasks with a task (program-tasks.ts). */
  taskAfterMs: number;
  /** Per server name: tool calls in flight at once over all programs (unlisted: no cap). */
  callsInFlight: Record<string, number>;
  /** Sandbox limits for every program (the playground's defaults otherwise). */
  limits: Partial<SandboxLimits>;
  mocks: MockTable;
  /** A skills folder or file (relative to the config file), each skill offered as a tool (lib/skills/). */
  skills?: string;
}

export { DEFAULT_DECLARATIONS_BUDGET_TOKENS };
export const DEFAULT_QUEUE_LIMIT = 64;
/** Under the 60 s an MCP client's SDK waits for an answer by default. */
export const DEFAULT_QUEUE_WAIT_MS = 30_000;
export const DEFAULT_TASK_AFTER_MS = 2_000;

const policy = z.enum(["refuse", "allow", "ask"], { error: 'must be "refuse", "allow" or "ask"' });
const positiveInt = z.number({ error: "must be a number" }).int("must be an integer").positive("must be positive");
const mock = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("value"), value: z.unknown() }).strict(),
  z.object({ kind: z.literal("error"), message: z.string() }).strict(),
  z.object({ kind: z.literal("script"), source: z.string() }).strict(),
]);
const limits = z
  .object({
    memoryBytes: positiveInt,
    stackBytes: positiveInt,
    cpuMs: positiveInt,
    wallMs: positiveInt,
    callTimeoutMs: positiveInt,
    maxConcurrency: positiveInt,
    maxCalls: positiveInt,
    resultBytes: positiveInt,
    logBytes: positiveInt,
  })
  .partial()
  .strict();
const section = z
  .object({
    destructive: z.record(z.string(), policy).optional(),
    defaultDestructive: policy.optional(),
    declarationsBudgetTokens: positiveInt.optional(),
    maxConcurrent: positiveInt.optional(),
    queueLimit: z.number({ error: "must be a number" }).int("must be an integer").min(0, "must be 0 or more").optional(),
    queueWaitMs: positiveInt.optional(),
    taskAfterMs: positiveInt.optional(),
    callsInFlight: z.record(z.string(), positiveInt).optional(),
    limits: limits.optional(),
    mocks: z.record(z.string(), z.record(z.string(), mock)).optional(),
    skills: z.string().min(1, "must name a folder or a file").optional(),
  })
  .strict();

export type CodeModeConfig = { ok: true; servers: ServerConfig[]; options: CodeModeOptions; warnings: string[] } | { ok: false; errors: string[] };

function pathOf(path: readonly PropertyKey[]): string {
  return ["codeMode", ...path.map(String)].join(".");
}

/** Parses an mcp.json text (or value) with its optional codeMode section; `cpuCount` sets the default cap. */
export function parseCodeModeConfig(input: unknown, cpuCount: number): CodeModeConfig {
  const read = configValue(input);
  if (!read.ok) return read;
  const data = read.data;
  const imported = importMcpServersConfig(data);
  const raw = typeof data === "object" && data !== null && "codeMode" in data ? data.codeMode : {};
  const parsed = section.safeParse(raw ?? {});
  const errors = [...(imported.ok ? [] : imported.errors), ...(parsed.success ? [] : parsed.error.issues.map((i) => `${pathOf(i.path)}: ${i.message}`))];
  if (!imported.ok || !parsed.success) return { ok: false, errors };
  const servers = imported.servers.filter((s) => s.enabled);
  const names = new Set(servers.map((s) => s.name));
  const unknown = [
    ...Object.keys(parsed.data.destructive ?? {})
      .filter((name) => !names.has(name))
      .map((name) => `codeMode.destructive.${name}`),
    ...Object.keys(parsed.data.callsInFlight ?? {})
      .filter((name) => !names.has(name))
      .map((name) => `codeMode.callsInFlight.${name}`),
  ];
  if (unknown.length > 0) return { ok: false, errors: unknown.map((path) => `${path}: no enabled server by that name`) };
  if (servers.length === 0) return { ok: false, errors: ["mcpServers: no enabled server to offer"] };
  const c = parsed.data;
  return {
    ok: true,
    servers,
    warnings: imported.warnings,
    options: {
      destructive: c.destructive ?? {},
      defaultDestructive: c.defaultDestructive ?? "ask",
      declarationsBudgetTokens: c.declarationsBudgetTokens ?? DEFAULT_DECLARATIONS_BUDGET_TOKENS,
      maxConcurrent: c.maxConcurrent ?? Math.max(1, cpuCount),
      queueLimit: c.queueLimit ?? DEFAULT_QUEUE_LIMIT,
      queueWaitMs: c.queueWaitMs ?? DEFAULT_QUEUE_WAIT_MS,
      taskAfterMs: c.taskAfterMs ?? DEFAULT_TASK_AFTER_MS,
      callsInFlight: c.callsInFlight ?? {},
      limits: c.limits ?? {},
      mocks: c.mocks ?? {},
      ...(c.skills ? { skills: c.skills } : {}),
    },
  };
}

/** The policy for one server. */
export function destructivePolicyFor(options: Pick<CodeModeOptions, "destructive" | "defaultDestructive">, server: string): DestructivePolicy {
  return Object.hasOwn(options.destructive, server) ? (options.destructive[server] ?? options.defaultDestructive) : options.defaultDestructive;
}
