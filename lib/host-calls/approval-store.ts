/**
 * The approvals the person has not answered yet, for the UI: a pure reducer over the pending
 * list, and a small broker that turns withApprovals' requests into pending entries and the
 * person's clicks back into decisions. The broker is a store (lib/state/store.ts): its snapshot is
 * the pending list, the same array until something changes.
 */
import { Store } from "../state/store";
import type { ApprovalDecision, ApprovalRequest } from "./approvals";
import type { CallIdentity } from "../timeline/run-record";

/** One prompt waiting for the person (the signal stays in the broker). */
export interface PendingApproval extends CallIdentity {
  args: unknown;
}

/** Actions on the pending list. */
export type ApprovalsAction = { type: "request"; approval: PendingApproval } | { type: "settle"; callId: number } | { type: "clear" };

/** Pure reducer; returns the same array when nothing changed. */
export function reduceApprovals(state: readonly PendingApproval[], action: ApprovalsAction): readonly PendingApproval[] {
  switch (action.type) {
    case "request":
      return state.some((p) => p.callId === action.approval.callId) ? state : [...state, action.approval];
    case "settle":
      return state.some((p) => p.callId === action.callId) ? state.filter((p) => p.callId !== action.callId) : state;
    case "clear":
      return state.length === 0 ? state : [];
  }
}

const NONE: readonly PendingApproval[] = [];

/** Bridges withApprovals (promises) and the UI (a pending list and decide()). */
export class ApprovalBroker extends Store<readonly PendingApproval[]> {
  private readonly waiting = new Map<number, { resolve: (decision: ApprovalDecision) => void; detach: () => void }>();

  constructor() {
    super(NONE);
  }

  /** The gate's `request`: adds a pending prompt and resolves with the person's decision. */
  readonly request = (callId: number, request: ApprovalRequest): Promise<ApprovalDecision> => {
    const { namespace, name, server, tool, args, signal } = request;
    return new Promise<ApprovalDecision>((resolve) => {
      // A second request for the same callId (a new run reusing ids) replaces the old prompt.
      this.resolve(callId, "deny");
      // The gate rejects on abort itself; here the prompt just goes away.
      const onAbort = () => this.resolve(callId, "deny");
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(callId, { resolve, detach: () => signal.removeEventListener("abort", onAbort) });
      this.dispatch({ type: "request", approval: { callId, namespace, name, server, tool, args } });
    });
  };

  /** The person's answer. "approve-all" answers every pending prompt of the run with approve. */
  decide(callId: number, decision: ApprovalDecision): void {
    if (decision === "approve-all") {
      const others = this.snapshot()
        .filter((p) => p.callId !== callId)
        .map((p) => p.callId);
      this.resolve(callId, "approve-all");
      for (const other of others) this.resolve(other, "approve");
      return;
    }
    this.resolve(callId, decision);
  }

  /** Denies everything pending (the run is being thrown away). */
  denyAll(): void {
    for (const callId of [...this.waiting.keys()]) this.resolve(callId, "deny");
    this.dispatch({ type: "clear" });
  }

  private resolve(callId: number, decision: ApprovalDecision): void {
    const entry = this.waiting.get(callId);
    this.waiting.delete(callId);
    entry?.detach();
    this.dispatch({ type: "settle", callId });
    entry?.resolve(decision);
  }

  private dispatch(action: ApprovalsAction): void {
    this.set(reduceApprovals(this.snapshot(), action));
  }
}
