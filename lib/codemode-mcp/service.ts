/**
 * What the code-mode MCP server does with one execute_code or search_tools call, independent of
 * the MCP transport: the connected servers' host functions (the playground's names, argument
 * validation and unwrapping, lib/host-calls/mcp-tools.ts), then mocks, then the destructive-tool
 * policy, then a call summary; the program runs on the injected runner (the thread pool) with a
 * fresh QuickJS context; its record goes to the live feed. Nothing is shared between calls
 * except the connections and the read-only catalog. Secrets (headers, env) stay inside the
 * connections, and every record is redacted by the RunRecorder.
 */
import type { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import { choosePromptForm, createToolCatalog, type Declarations } from "../codemode";
import { codeModeServerDescription } from "../codemode/system-prompt";
import { buildHostFunctions, type HostServer } from "../host-calls/mcp-tools";
import { withToolDiscovery } from "../mcp/tool-discovery";
import { recordCalls, type MadeToolCall } from "../host-calls/record-calls";
import { CallCaps } from "../host-calls/call-caps";
import { hostApiOf } from "../sandbox/host-api";
import type { HostFunctions, RunEvent, RunRequest, RunResult } from "../sandbox/types";
import { approvalPredicate, withApprovalPolicy, type ApprovalPolicy } from "../host-calls/approvals";
import { withMocks, type ScriptRunner } from "../host-calls/mocks";
import { RunRecorder } from "../timeline/recorder";
import type { RunRecord } from "../timeline/run-record";
import { destructivePolicyFor, type CodeModeOptions } from "./config";
import { skillsServer, type Skill } from "../skills/skill";
import { skillInputProblem, withSkills, type SkillRunner } from "../skills/skill-host";
import { EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL } from "../codemode/system-prompt";
import { throttledPublisher, type FeedUpdate } from "./run-feed";
import { isRecord } from "../text/json-value";

/** Runs one program (the thread pool's run). */
export type ProgramRunner = (run: {
  request: RunRequest;
  host: HostFunctions;
  onEvent?: (event: RunEvent) => void;
  signal?: AbortSignal;
  /** Who asked, for the pool's fair shares. */
  client?: string;
}) => Promise<RunResult>;

/** Asks the calling client whether a destructive call may go ahead (MCP elicitation); true = yes. */
export type AskClient = (question: { server: string; tool: string; namespace: string; name: string; args: unknown }, signal: AbortSignal) => Promise<boolean>;

export interface CodeModeServiceDeps {
  servers: readonly HostServer[];
  options: CodeModeOptions;
  run: ProgramRunner;
  /** Runs mock scripts; without it script mocks fail with a clear message. */
  runScript?: ScriptRunner;
  /** Receives each run's record while it goes and when it ends. */
  publish?: (update: FeedUpdate) => void;
  /** Skills offered as tools of their own and, inside programs, as `skills.<name>` (lib/skills/). */
  skills?: readonly Skill[];
  /** The same skills as MCP skills (published-skills.ts), attached to every server the service backs. */
  published?: SkillsExtension;
  /**
   * Runs a skill's program called from inside another program. Node gives an in-process run, so
   * a pool whose every thread holds a program waiting on a skill cannot deadlock; default: `run`.
   */
  runNested?: SkillRunner;
}

/** Who called, and how to reach them. */
export interface CallContext {
  /** The client's name from initialize (shown in the playground's run history). */
  clientName: string;
  /** The caller's session: the thread pool shares its threads fairly between these. */
  clientId?: string;
  /** Absent when the client cannot answer elicitation: "ask" then refuses. */
  ask?: AskClient;
  /** Why this client cannot be asked, when `ask` is absent (default: it has no elicitation support). */
  whyNoAsk?: string;
  signal?: AbortSignal;
  /** Console lines as they happen (the MCP server forwards them as log notifications). */
  onLog?: (level: string, text: string) => void;
  /** The program's tool calls so far, after each one (a task's status message). */
  onCalls?: (calls: CallSummary) => void;
}

/** The outcome as the MCP tool result carries it. */
export type ExecuteOutcome =
  | { ok: true; value: unknown; logs: string[]; calls: CallSummary; wallMs: number; runId: string }
  | { ok: false; kind: string; message: string; line?: number; column?: number; logs: string[]; calls: CallSummary; runId?: string };

export interface CallSummary {
  total: number;
  failed: number;
  /** Calls per `server.tool`. */
  tools: Record<string, number>;
}

export interface CodeModeService {
  declarations: Declarations;
  /** execute_code's description (declarations while they fit the budget). */
  description: string;
  /** True when the declarations did not fit and the description points at search_tools. */
  searchFirst: boolean;
  /** A program still running after this long answers a client that takes tasks with a task. */
  taskAfterMs: number;
  /** The skills as MCP skills, when there are any (published-skills.ts). */
  published?: SkillsExtension;
  execute(input: unknown, context: CallContext): Promise<ExecuteOutcome>;
  search(input: unknown): { ok: true; text: string } | { ok: false; message: string };
  /** The skills offered, each marked destructive when a call it recorded goes to a destructive tool. */
  skills: readonly Skill[];
  /** Runs a skill as its own tool call: its input checked against its schema, its program run like execute_code's. */
  callSkill(name: string, input: unknown, context: CallContext): Promise<ExecuteOutcome>;
}

/** Why the skills cannot be offered beside execute_code, or undefined. */
export function skillNamesProblem(skills: readonly Skill[]): string | undefined {
  const clash = skills.find((s) => s.name === EXECUTE_CODE_TOOL || s.name === SEARCH_TOOLS_TOOL);
  return clash ? `A skill may not be named ${clash.name}: the code-mode server's own tool has that name.` : undefined;
}

/**
 * Skills that call a server the config does not have, as their recorded tests show: one line per
 * fault, naming the skill, the test and the call, so the command refuses at start rather than
 * fail when an agent first calls the skill.
 */
export function skillServerProblems(skills: readonly Skill[], serverNames: readonly string[]): string[] {
  const known = new Set(serverNames);
  const problems: string[] = [];
  for (const skill of skills) {
    const missing = new Map<string, string>();
    for (const test of skill.tests) {
      for (const call of test.calls) {
        if (!known.has(call.server) && !missing.has(call.server)) missing.set(call.server, `${call.server}.${call.tool} (test "${test.name}")`);
      }
    }
    for (const [server, where] of missing) {
      problems.push(
        `skill "${skill.name}" calls ${where}, but the config has no server "${server}" (it has ${serverNames.length > 0 ? serverNames.join(", ") : "none"})`,
      );
    }
  }
  return problems;
}

function summarise(calls: readonly MadeToolCall[]): CallSummary {
  const tools: Record<string, number> = {};
  for (const call of calls) {
    const key = `${call.server}.${call.tool}`;
    tools[key] = (tools[key] ?? 0) + 1;
  }
  return { total: calls.length, failed: calls.filter((c) => !c.ok).length, tools };
}

/** The message a call refused by policy throws in the program. */
export function refusedMessage(server: string, tool: string, why: string): string {
  return `${server}.${tool} is destructive and was not called: ${why}`;
}

/**
 * The code-mode server's approval policy: a destructive call is sent, refused, or put to the
 * calling client (elicitation), as the server's policy for its server says; "ask" with a client
 * that cannot be asked refuses. Programs run at once (no step mode).
 */
export function codeModeApprovalPolicy(
  options: Pick<CodeModeOptions, "destructive" | "defaultDestructive">,
  destructive: (server: string, tool: string) => boolean,
  ask: CallContext["ask"],
  whyNoAsk = "this client cannot be asked (no elicitation support)",
): ApprovalPolicy {
  return {
    program: "run",
    needsApproval: destructive,
    decider: (server, tool) => {
      const policy = destructivePolicyFor(options, server);
      if (policy === "allow") return { by: "policy", decision: "approve" };
      if (policy === "refuse")
        return { by: "policy", decision: "deny", message: refusedMessage(server, tool, `the code-mode server's policy for "${server}" is refuse`) };
      if (!ask)
        return {
          by: "policy",
          decision: "deny",
          message: refusedMessage(server, tool, `the policy is to ask, and ${whyNoAsk}`),
        };
      return { by: "person", request: async (_callId, request) => ((await ask(request, request.signal)) ? "approve" : "deny") };
    },
  };
}

export function createCodeModeService(deps: CodeModeServiceDeps): CodeModeService {
  const serverTools = deps.servers.map((s) => ({ name: s.name, tools: s.tools }));
  const destructive = approvalPredicate(serverTools);
  const clash = skillNamesProblem(deps.skills ?? []);
  if (clash) throw new Error(clash);
  // A skill is destructive when it says so or a call it recorded goes to a destructive tool here.
  const skills = (deps.skills ?? []).map((skill) => ({
    ...skill,
    destructive: skill.destructive || skill.tests.some((test) => test.calls.some((call) => destructive(call.server, call.tool))),
  }));
  const skillServer = skillsServer(skills);
  // The same catalog the page and the headless runner build (lib/codemode/tool-catalog.ts).
  const catalog = createToolCatalog([...serverTools, ...(skillServer ? [skillServer] : [])]);
  const { declarations, search: toolSearch } = catalog;
  // The same rule as the page and the headless runner (lib/codemode/prompt-form.ts).
  const fits = choosePromptForm(declarations.text, "auto", deps.options.declarationsBudgetTokens).mode === "declarations";
  // Per-server caps on calls in flight hold over every program at once (codeMode.callsInFlight).
  const caps = new CallCaps((server) => deps.options.callsInFlight[server]);
  let runs = 0;

  /**
   * Host functions for one execution, each wrapper reporting into this run's recorder; with
   * `nested`, the skills too, their programs' calls going through the same wrappers.
   */
  const hostFor = (
    recorder: () => RunRecorder | undefined,
    context: CallContext,
    sink: (call: MadeToolCall) => void,
    nested: { onEvent: (event: RunEvent) => void } | undefined,
  ) => {
    const built = buildHostFunctions(deps.servers, {
      onCallInfo: (callId, info) => recorder()?.onCallInfo(callId, { ...info, source: "live" }),
      onProgress: (callId, progress) => recorder()?.onProgress(callId, progress),
    });
    const names = built.namespaces;
    let host: HostFunctions = caps.wrap(built.host, names, (callId, info) => recorder()?.onCallInfo(callId, info));
    const mocks = deps.options.mocks;
    if (Object.keys(mocks).length > 0) {
      host = withMocks(host, mocks, (callId, info) => recorder()?.onCallInfo(callId, info), deps.runScript ? { runScript: deps.runScript } : {});
    }
    host = withApprovalPolicy(host, codeModeApprovalPolicy(deps.options, destructive, context.ask, context.whyNoAsk), {
      names,
      onInfo: (callId, info) => recorder()?.onCallInfo(callId, info),
    });
    let recorded = recordCalls(host, names, sink);
    if (nested && skills.length > 0) {
      const runNested: SkillRunner = deps.runNested ?? ((request, h, onEvent, signal) => deps.run({ request, host: h, onEvent, signal }));
      recorded = withSkills(recorded, skills, {
        run: runNested,
        onEvent: nested.onEvent,
        onInfo: (callId, info) => recorder()?.onCallInfo(callId, info),
        limits: deps.options.limits,
      });
    }
    // tools.search / tools.describe over the same catalog, outside the call summary (MCP calls only).
    return { host: withToolDiscovery(recorded, catalog), names };
  };

  /** Runs one program for a client: execute_code's, or a skill's called as its own tool. */
  const runProgram = async (
    program: { code: string; data?: Record<string, unknown>; title: string; nested: boolean },
    context: CallContext,
  ): Promise<ExecuteOutcome> => {
    const { code } = program;
    const runId = `mcp-${Date.now().toString(36)}-${(++runs).toString(36)}`;
    const made: MadeToolCall[] = [];
    // The host functions report into the recorder, which needs their API first: a slot breaks the cycle.
    const slot: { recorder?: RunRecorder; tick?: () => void } = {};
    const onEvent = (event: RunEvent) => {
      slot.recorder?.onEvent(event);
      if (event.type === "log") context.onLog?.(event.entry.level, event.entry.text);
      slot.tick?.();
    };
    const { host, names } = hostFor(
      () => slot.recorder,
      context,
      (call) => {
        made.push(call);
        context.onCalls?.(summarise(made));
      },
      program.nested ? { onEvent } : undefined,
    );
    const request: RunRequest = { code, ...(program.data ? { data: program.data } : {}), limits: deps.options.limits };
    const live = new RunRecorder({
      id: runId,
      code,
      limits: deps.options.limits,
      api: hostApiOf(host),
      names,
      title: program.title,
      ...(program.data ? { data: program.data } : {}),
    });
    slot.recorder = live;
    const feed = deps.publish ? throttledPublisher(deps.publish, () => live.snapshot()) : undefined;
    slot.tick = feed ? () => feed.tick() : undefined;
    feed?.tick();
    const result = await deps.run({
      request,
      host,
      client: context.clientId ?? context.clientName,
      ...(context.signal ? { signal: context.signal } : {}),
      onEvent,
    });
    const record: RunRecord = live.finish(result);
    feed?.finish(record);
    const logs = result.logs.map((entry) => (entry.level === "log" ? entry.text : `[${entry.level}] ${entry.text}`));
    const calls = summarise(made);
    if (result.ok) return { ok: true, value: result.value, logs, calls, wallMs: Math.round(result.stats.wallMs), runId };
    const { kind, message, line, column } = result.error;
    return { ok: false, kind, message, ...(line ? { line } : {}), ...(column ? { column } : {}), logs, calls, runId };
  };

  return {
    declarations,
    skills,
    searchFirst: !fits,
    taskAfterMs: deps.options.taskAfterMs,
    ...(deps.published ? { published: deps.published } : {}),
    description: codeModeServerDescription(declarations.namespaces, fits ? declarations.text : undefined),

    async execute(input, context) {
      const noCalls: CallSummary = { total: 0, failed: 0, tools: {} };
      if (!isRecord(input) || typeof input.code !== "string" || input.code.trim() === "") {
        return { ok: false, kind: "input", message: "execute_code needs `code`: a non-empty string holding the program", logs: [], calls: noCalls };
      }
      if (input.data !== undefined && !isRecord(input.data)) {
        return { ok: false, kind: "input", message: "`data` must be an object; its keys become read-only globals", logs: [], calls: noCalls };
      }
      return runProgram(
        { code: input.code, ...(input.data ? { data: input.data } : {}), title: `${context.clientName} · execute_code`, nested: true },
        context,
      );
    },

    search(input) {
      if (!isRecord(input) || typeof input.query !== "string" || input.query.trim() === "") {
        return { ok: false, message: "search_tools needs `query`: a few keywords" };
      }
      const limit = input.limit === undefined ? 5 : input.limit;
      if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 20)
        return { ok: false, message: "`limit` must be an integer from 1 to 20" };
      const found = toolSearch.search(input.query, limit);
      return { ok: true, text: found.hits.length === 0 ? `No function matches "${input.query}". Try other words.` : found.text };
    },

    async callSkill(name, input, context) {
      const noCalls: CallSummary = { total: 0, failed: 0, tools: {} };
      const skill = skills.find((s) => s.name === name);
      if (!skill) return { ok: false, kind: "input", message: `There is no skill "${name}".`, logs: [], calls: noCalls };
      const args = input ?? {};
      const problem = isRecord(args) ? skillInputProblem(skill, args) : "Invalid input: it must be an object";
      if (problem || !isRecord(args)) return { ok: false, kind: "input", message: problem ?? "Invalid input", logs: [], calls: noCalls };
      return runProgram({ code: skill.code, data: args, title: `${context.clientName} · skills.${name}`, nested: false }, context);
    },
  };
}
