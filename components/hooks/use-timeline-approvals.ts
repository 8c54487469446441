"use client";

import { useStore } from "@/components/hooks/use-store";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApprovalBroker, type PendingApproval } from "@/lib/host-calls/approval-store";
import { approvalPredicate, toolKey, type AnnotatedServer, type ApprovalDecision, type ApprovalGate } from "@/lib/host-calls/approvals";

/** Approval prompts, the person's answers, and which tools need approval. */
export interface UseTimelineApprovalsResult {
  pending: readonly PendingApproval[];
  decide: (callId: number, decision: ApprovalDecision) => void;
  /** Tools the person marked (toolKey); destructive tools need approval whether marked or not. */
  marked: ReadonlySet<string>;
  toggleMarked: (server: string, tool: string) => void;
  /** Tools that declare destructiveHint (toolKey): they always ask. */
  destructive: ReadonlySet<string>;
  /** For withApprovals / buildDebugHost; reads the latest marks at call time. */
  gate: Pick<ApprovalGate, "needsApproval" | "request">;
  /** Denies every open prompt (the run is being thrown away). */
  denyAll: () => void;
}

const NONE: readonly PendingApproval[] = [];

/** One broker per playground: prompts come from the run's host functions, answers from the timeline rows. */
export function useTimelineApprovals(servers: readonly AnnotatedServer[]): UseTimelineApprovalsResult {
  const [broker] = useState(() => new ApprovalBroker());
  const pending = useStore(broker, undefined, { fallback: NONE });
  const [marked, setMarked] = useState<ReadonlySet<string>>(() => new Set());
  const predicate = useMemo(() => approvalPredicate(servers, marked), [servers, marked]);
  const destructive = useMemo(() => {
    const keys = new Set<string>();
    for (const server of servers) for (const tool of server.tools) if (tool.annotations?.destructiveHint === true) keys.add(toolKey(server.name, tool.name));
    return keys;
  }, [servers]);
  // The gate outlives renders (a run keeps its host functions): it reads the predicate through a ref.
  const predicateRef = useRef(predicate);
  useEffect(() => {
    predicateRef.current = predicate;
  }, [predicate]);

  const toggleMarked = useCallback((server: string, tool: string) => {
    setMarked((current) => {
      const next = new Set(current);
      const key = toolKey(server, tool);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);

  const gate = useMemo<UseTimelineApprovalsResult["gate"]>(
    () => ({ needsApproval: (server, tool) => predicateRef.current(server, tool), request: broker.request }),
    [broker],
  );
  const decide = useCallback((callId: number, decision: ApprovalDecision) => broker.decide(callId, decision), [broker]);
  const denyAll = useCallback(() => broker.denyAll(), [broker]);

  return { pending, decide, marked, toggleMarked, destructive, gate, denyAll };
}
