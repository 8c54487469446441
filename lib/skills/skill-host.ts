/**
 * Skills as host functions (docs/agents.md, "Skills"): `skills.<name>(input)` checks the
 * input against the skill's schema, runs the skill's code in a sandbox run of its own with the
 * input as its `data` globals, and resolves with the value it returns. The inner run's calls go
 * to the same host functions as the outer program's (mocks, approvals, replay, the servers' caps)
 * and show on the outer run's timeline as calls nested under the skill's call: their events are
 * passed on with ids of their own (SKILL_CALL_ID_BASE up) and a `parent`.
 *
 * A skill cannot call skills: its run gets every namespace but `skills`. Pure: the sandbox run
 * is injected (the page's second worker, QuickJS in Node, the code-mode server's pool).
 */
import type { HostCallInfo, HostFunction, HostFunctions, RunEvent, RunRequest, RunResult, SandboxLimits } from "../sandbox/types";
import type { CallInfo } from "../timeline/call-records";
import { define, mapHost, safely } from "../host-calls/host-table";
import { formatIssues, validateArguments, validateStructuredContent } from "../mcp/validate";
import { SKILLS_NAMESPACE, type Skill } from "./skill";

/** Runs a skill's program: the sandbox, with `host` as its functions and `onEvent` told what it does. */
export type SkillRunner = (request: RunRequest, host: HostFunctions, onEvent: (event: RunEvent) => void, signal: AbortSignal) => Promise<RunResult>;

/** Ids of nested calls start here, far above any outer call's (one per guest call, at most maxCalls). */
export const SKILL_CALL_ID_BASE = 1_000_000_000;

export interface SkillHostOptions {
  run: SkillRunner;
  /** The inner runs' events, as events of the outer run: ids remapped, times on the outer run's clock, lines dropped. */
  onEvent?: (event: RunEvent) => void;
  /** What is learnt about a call: a nested call's parent, a skill's input check and output findings. */
  onInfo?: (callId: number, info: CallInfo) => void;
  /** The inner runs' limits (the outer run's: a skill runs under the same). */
  limits?: Partial<SandboxLimits>;
  /** Milliseconds since the outer run started; defaults to a clock started when the host is built. */
  now?: () => number;
  /** When the outer run's call started on its engine's clock, when known: nested calls are timed from it, so they sit inside their parent's bar. */
  callStart?: (callId: number) => number | undefined;
  /** Skills held for review (imported, not yet trusted): a call to one fails saying so, and runs nothing. */
  held?: readonly string[];
}

/** What a program that calls a skill held for review is told (the sandbox puts "skills.<name>: " in front). */
export const HELD_SKILL_MESSAGE =
  "this skill is waiting for review (it came from a share or an import): open the Skills tab, read its code and trust it; until then no program can call it.";

/** The error a failed skill throws in the caller's program. */
export class SkillError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SkillError";
  }
}

/** `host` with the skills' namespace added (see the file comment). One per run: the nested ids count within it. */
export function withSkills(host: HostFunctions, skills: readonly Skill[], options: SkillHostOptions): HostFunctions {
  const held = (options.held ?? []).filter((name) => !skills.some((s) => s.name === name));
  if (skills.length === 0 && held.length === 0) return host;
  const origin = performance.now();
  const now = options.now ?? (() => performance.now() - origin);
  let nextId = SKILL_CALL_ID_BASE;
  // What a skill's program may call: everything but skills.
  const inner: HostFunctions = {};
  for (const namespace of Object.keys(host)) if (namespace !== SKILLS_NAMESPACE) define(inner, namespace, host[namespace] ?? {});

  const fnFor =
    (skill: Skill): HostFunction =>
    async (args, signal, outer) => {
      const invokedAt = performance.now();
      const label = `${SKILLS_NAMESPACE}.${skill.name}`;
      const input = args ?? {};
      const check = validateArguments(skill.inputSchema, input);
      if (!check.ok) {
        safely(options.onInfo, outer.callId, { server: SKILLS_NAMESPACE, tool: skill.name, validation: check.message });
        throw new SkillError(check.message);
      }
      const ids = new Map<number, number>();
      const idOf = (innerId: number): number => {
        let id = ids.get(innerId);
        if (id === undefined) ids.set(innerId, (id = nextId++));
        return id;
      };
      const offset = (options.callStart?.(outer.callId) ?? now()) + (performance.now() - invokedAt);
      const innerHost = mapHost(inner, (fn) => (callArgs, callSignal, call) => fn(callArgs, callSignal, nestedCall(call, idOf(call.callId), outer)));
      const onEvent = (event: RunEvent): void => {
        if (!options.onEvent) return;
        if (event.type === "log") {
          options.onEvent({ type: "log", entry: { ...event.entry, time: offset + event.entry.time, text: `[${label}] ${event.entry.text}` } });
          return;
        }
        const callId = idOf(event.callId);
        if (event.type === "call-start") {
          const { line: _line, ...start } = event;
          safely(options.onInfo, callId, { parent: outer.callId });
          options.onEvent({ ...start, callId, time: offset + event.time });
        } else options.onEvent({ ...event, callId, time: offset + event.time });
      };
      const request: RunRequest = { code: skill.code, data: input as Record<string, unknown>, ...(options.limits ? { limits: options.limits } : {}) };
      const result = await options.run(request, innerHost, onEvent, signal);
      // The sandbox names the call in front of it ("skills.x: …").
      if (!result.ok) throw new SkillError(`the skill's program failed: ${result.error.message}`);
      if (skill.outputSchema) {
        const findings = validateStructuredContent(skill.outputSchema, result.value).filter((f) => f.kind === "mismatch");
        if (findings.length > 0) safely(options.onInfo, outer.callId, { outputFindings: findings.map(({ path, message }) => ({ path, message })) });
      }
      return result.value;
    };

  const fns: Record<string, HostFunction> = {};
  for (const skill of skills) define(fns, skill.name, fnFor(skill));
  for (const name of held)
    define(fns, name, () => {
      throw new SkillError(HELD_SKILL_MESSAGE);
    });
  const out: HostFunctions = { ...host };
  define(out, SKILLS_NAMESPACE, fns);
  return out;
}

/**
 * The call info a nested call's host function gets: its own id (so what the host reports lands
 * on its row), and a clock pause that stops both the inner run's clocks and the skill call's
 * timeout in the outer run, since a person deciding about a nested call holds up both.
 */
function nestedCall(call: HostCallInfo, callId: number, outer: HostCallInfo): HostCallInfo {
  const pauses = [call.suspendClock, outer.suspendClock].filter((pause): pause is NonNullable<HostCallInfo["suspendClock"]> => pause !== undefined);
  if (pauses.length === 0) return { callId };
  return {
    callId,
    suspendClock: () => {
      const resumes = pauses.map((pause) => pause());
      return () => resumes.forEach((resume) => resume());
    },
  };
}

/** A skill's input problems, as one line (the Save dialog and the test-call form say it). */
export function skillInputProblem(skill: Pick<Skill, "inputSchema">, input: unknown): string | undefined {
  const check = validateArguments(skill.inputSchema, input);
  return check.ok ? undefined : formatIssues("Invalid input", check.issues);
}
