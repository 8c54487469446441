/**
 * The approval gate: calls to tools that need a person's approval (destructive ones, and any
 * the person marks) wait for approve / deny / approve-all before they are sent. Deny throws
 * "denied by the person" in the guest; approve-all lets every later call of the run through.
 *
 * Clocks: a person deciding must not count against the run's wall clock or the call's timeout.
 * Those clocks live in the sandbox, so the gate calls the call's `suspendClock()` (it returns a
 * resume function) while the prompt is open; hosts that do not provide it (tests, other
 * embedders) simply keep their clocks running.
 */
import { originalNames, type NameMap } from "./mcp-tools";
import { redactSecrets } from "../secrets/redact";
import type { HostCallInfo, HostFunctions } from "../sandbox/types";
import type { CallInfo } from "../timeline/call-records";
import { mapHost, safely } from "./host-table";
import type { CallIdentity } from "../timeline/run-record";

/** What the person can answer. */
export type ApprovalDecision = "approve" | "deny" | "approve-all";

/** What the prompt shows, and a signal that aborts when the run no longer needs the answer. */
export interface ApprovalRequest extends CallIdentity {
  /** Redacted, for display. */
  args: unknown;
  signal: AbortSignal;
}

/** Sanitised names → original names, as buildHostFunctions reports them. */
export type NameMapping = NameMap[number];

/** How withApprovals decides and asks. */
export interface ApprovalGate {
  needsApproval(server: string, tool: string): boolean;
  request(callId: number, request: ApprovalRequest): Promise<ApprovalDecision>;
  names?: readonly NameMapping[];
  onInfo?: (callId: number, info: CallInfo) => void;
}

/** A host call whose run clocks a host function may suspend (HostCallInfo.suspendClock). */
export type ClockAwareCall = HostCallInfo;

/** The message a denied call throws in the guest. */
export const DENIED_MESSAGE = "denied by the person";

/** Thrown in the guest when the person denies a call. */
export class ApprovalDeniedError extends Error {
  readonly code = "approval-denied";
  constructor(message: string = DENIED_MESSAGE) {
    super(message);
    this.name = "ApprovalDeniedError";
  }
}

/** Wraps host functions with the approval gate: a person decides each call that needs approval (one wrapper per run: approve-all lasts for the run). */
export function withApprovals(host: HostFunctions, gate: ApprovalGate): HostFunctions {
  const decider: CallDecider = { by: "person", request: (callId, request) => gate.request(callId, request) };
  return withApprovalPolicy(host, { needsApproval: (server, tool) => gate.needsApproval(server, tool), decider: () => decider }, gate);
}

/** Who decides one call that needs approval. */
export type CallDecider =
  /** A person: the page's prompt, or a code-mode client asked by elicitation. */
  | { by: "person"; request: ApprovalGate["request"] }
  /** Decided before the call: sent, refused (the guest reads `message`), or answered with a stand-in (mockedAnswer). */
  | { by: "policy"; decision: PresetDecision; message?: string };

/**
 * Who approves what, in one object (docs/page-state.md, "Approvals"). Every host that runs
 * programs builds one: the page (step mode, its prompt, a program approved as a whole), `npm run
 * agent` and evals (decided before the run), the code-mode MCP server (refuse, allow or ask its
 * client, per server). Both questions are asked at call time, so marks made during a run count.
 */
export interface ApprovalPolicy {
  /** Step mode: a program waits for a person before it runs ("ask"), or runs at once ("run"). */
  readonly program: "ask" | "run";
  /** The calls that need a decision (approvalPredicate: explicitly destructive tools, and tools the person marked). */
  needsApproval(server: string, tool: string): boolean;
  /** Who decides such a call. */
  decider(server: string, tool: string): CallDecider;
}

/** A policy that decides every call that needs approval the same way, before the run (evals, `npm run agent`). */
export function presetPolicy(needsApproval: ApprovalPolicy["needsApproval"], decision: PresetDecision, message?: string): ApprovalPolicy {
  const decider: CallDecider = { by: "policy", decision, ...(message === undefined ? {} : { message }) };
  return { program: "run", needsApproval, decider: () => decider };
}

/**
 * Wraps host functions with an approval policy (one wrapper per run: approve-all lasts for the
 * run). A call that needs no approval goes straight through; a refused one throws in the guest
 * and never reaches the tool; the call's row says what was decided.
 */
export function withApprovalPolicy(
  host: HostFunctions,
  policy: Pick<ApprovalPolicy, "needsApproval" | "decider">,
  options: { names?: readonly NameMapping[]; onInfo?: (callId: number, info: CallInfo) => void } = {},
): HostFunctions {
  const { onInfo } = options;
  let approvedAll = false;
  const original = originalNames(options.names ?? []);
  return mapHost(host, (fn, namespace, name) => {
    const { server, tool } = original(namespace, name);
    return async (args, signal, call) => {
      if (approvedAll || !policy.needsApproval(server, tool)) return fn(args, signal, call);
      const decider = policy.decider(server, tool);
      if (decider.by === "policy") {
        if (decider.decision === "deny") {
          safely(onInfo, call.callId, { approval: "denied" });
          throw new ApprovalDeniedError(decider.message ?? DENIED_BY_POLICY_MESSAGE);
        }
        safely(onInfo, call.callId, { approval: "approved" });
        return decider.decision === "mock" ? mockedAnswer(server, tool) : fn(args, signal, call);
      }
      safely(onInfo, call.callId, { approval: "waiting" });
      const resume = call.suspendClock?.();
      let decision: ApprovalDecision;
      try {
        decision = await abortable(
          decider.request(call.callId, { callId: call.callId, namespace, name, server, tool, args: redactSecrets(args), signal }),
          signal,
        );
      } finally {
        resume?.();
      }
      if (decision === "deny") {
        safely(onInfo, call.callId, { approval: "denied" });
        throw new ApprovalDeniedError();
      }
      if (decision === "approve-all") approvedAll = true;
      safely(onInfo, call.callId, { approval: "approved" });
      return fn(args, signal, call);
    };
  });
}

/** A key for a tool in sets of marked tools. */
export function toolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** The tools of a server as the predicate needs them (an MCP Tool fits). */
export interface AnnotatedServer {
  name: string;
  tools: ReadonlyArray<{ name: string; annotations?: { destructiveHint?: boolean } }>;
}

/**
 * needsApproval for withApprovals: tools that declare `destructiveHint: true`, plus the ones
 * the person marked (toolKey). The MCP spec defaults destructiveHint to true when a tool says
 * nothing, but most servers say nothing: gating all of them would prompt on every call and
 * teach people to click "approve" without reading, so only an explicit hint counts.
 */
export function approvalPredicate(servers: readonly AnnotatedServer[], marked: ReadonlySet<string> = new Set()): (server: string, tool: string) => boolean {
  const destructive = new Set<string>();
  for (const server of servers)
    for (const tool of server.tools) if (tool.annotations?.destructiveHint === true) destructive.add(toolKey(server.name, tool.name));
  return (server, tool) => destructive.has(toolKey(server, tool)) || marked.has(toolKey(server, tool));
}

/** Rejects when the run's signal aborts (cancel, timeout), so a forgotten prompt cannot hold a call. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("cancelled");
}

/** What a run decided in advance about destructive calls: send, refuse, or answer with a stand-in. */
export type PresetDecision = "approve" | "deny" | "mock";

/** The message a call refused by a preset decision throws in the guest. */
export const DENIED_BY_POLICY_MESSAGE = "denied: this run's policy refuses destructive calls";

/** What a call answered by a preset "mock" returns to the guest instead of the server's answer. */
export function mockedAnswer(server: string, tool: string): { mocked: true; note: string } {
  return { mocked: true, note: `${server}.${tool} was not called: this run's policy answers destructive calls with this stand-in` };
}
