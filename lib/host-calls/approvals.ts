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
import { originalNames, type NameMap } from "../mcp/host-functions";
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

/** Wraps host functions with the approval gate; one wrapper per run (approve-all lasts for the run). */
export function withApprovals(host: HostFunctions, gate: ApprovalGate): HostFunctions {
  let approvedAll = false;
  const original = originalNames(gate.names ?? []);
  return mapHost(host, (fn, namespace, name) => {
    const { server, tool } = original(namespace, name);
    return async (args, signal, call) => {
      if (approvedAll || !gate.needsApproval(server, tool)) return fn(args, signal, call);
      safely(gate.onInfo, call.callId, { approval: "waiting" });
      const resume = call.suspendClock?.();
      let decision: ApprovalDecision;
      try {
        decision = await abortable(
          gate.request(call.callId, { callId: call.callId, namespace, name, server, tool, args: redactSecrets(args), signal }),
          signal,
        );
      } finally {
        resume?.();
      }
      if (decision === "deny") {
        safely(gate.onInfo, call.callId, { approval: "denied" });
        throw new ApprovalDeniedError();
      }
      if (decision === "approve-all") approvedAll = true;
      safely(gate.onInfo, call.callId, { approval: "approved" });
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

/**
 * Calls that need approval, decided before the run instead of by a person (evals: the suite's
 * `destructive` policy): sent, refused in the guest, or answered with `mockedAnswer` without
 * reaching the server. The call's timeline row says which.
 */
export function withPresetDecision(
  host: HostFunctions,
  gate: Pick<ApprovalGate, "needsApproval" | "names" | "onInfo">,
  decision: PresetDecision,
): HostFunctions {
  const original = originalNames(gate.names ?? []);
  return mapHost(host, (fn, namespace, name) => {
    const { server, tool } = original(namespace, name);
    return async (args, signal, call) => {
      if (!gate.needsApproval(server, tool)) return fn(args, signal, call);
      if (decision === "deny") {
        safely(gate.onInfo, call.callId, { approval: "denied" });
        throw new ApprovalDeniedError(DENIED_BY_POLICY_MESSAGE);
      }
      safely(gate.onInfo, call.callId, { approval: "approved" });
      return decision === "mock" ? mockedAnswer(server, tool) : fn(args, signal, call);
    };
  });
}
