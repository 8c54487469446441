"use client";

import { createContext, useContext } from "react";
import type { PendingApproval } from "@/lib/timeline/approval-store";
import type { ApprovalDecision } from "@/lib/timeline/approvals";
import { ApprovalPrompt } from "./ApprovalPrompt";
import styles from "./Timeline.module.css";

/** What waits for the person right now (approvals; later elicitation and sampling), and how to answer. */
export interface Waiting {
  pending: readonly PendingApproval[];
  decide: (callId: number, decision: ApprovalDecision) => void;
}

const NOTHING: Waiting = { pending: [], decide: () => undefined };

/**
 * Provided once by the page, so every place the person may be looking (the Output tab, the chat's
 * tool card, the Timeline) shows the same waits with the same buttons.
 */
export const WaitingContext = createContext<Waiting>(NOTHING);

export function useWaiting(): Waiting {
  return useContext(WaitingContext);
}

/** "Waiting for you: store.place_order" with its arguments and Approve / Deny / Approve all, for every open wait. */
export function WaitingPrompts() {
  const { pending, decide } = useWaiting();
  if (pending.length === 0) return null;
  return (
    <div className={styles.waiting} role="region" aria-label="Waiting for you">
      {pending.map((approval) => (
        <div key={approval.callId}>
          <div className={styles.waitingTitle}>
            Waiting for you: <b>{`${approval.server}.${approval.tool}`}</b>
          </div>
          <ApprovalPrompt approval={approval} onDecide={decide} />
        </div>
      ))}
    </div>
  );
}

/** The label for whatever waits: "waiting for you: store.place_order" (and how many more). */
export function waitingLabel(pending: readonly PendingApproval[]): string | undefined {
  const first = pending[0];
  if (!first) return undefined;
  return `waiting for you: ${first.server}.${first.tool}${pending.length > 1 ? ` (+${pending.length - 1})` : ""}`;
}
