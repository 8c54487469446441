"use client";

import { createContext, useContext } from "react";
import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { ApprovalPrompt } from "./ApprovalPrompt";
import styles from "./Timeline.module.css";

/** What waits for the person right now, and how to answer. */
export interface Waiting {
  /** Approvals, answered here. */
  pending: readonly PendingApproval[];
  decide: (callId: number, decision: ApprovalDecision) => void;
  /** What servers ask during a call ("asker asks for input"), answered in their dialog. */
  asks: readonly string[];
}

const NOTHING: Waiting = { pending: [], decide: () => undefined, asks: [] };

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
  const { pending, decide, asks } = useWaiting();
  if (pending.length === 0 && asks.length === 0) return null;
  return (
    <div className={styles.waiting} role="region" aria-label="Waiting for you">
      {asks.map((ask, index) => (
        <div key={`ask-${index}`} className={styles.waitingTitle}>
          Waiting for you: <b>{ask}</b> (answer in its dialog)
        </div>
      ))}
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

/** The label for whatever waits: "waiting for you: store.place_order" or "…: asker asks for input" (and how many more). */
export function waitingLabel(pending: readonly PendingApproval[], asks: readonly string[] = []): string | undefined {
  const labels = [...pending.map((p) => `${p.server}.${p.tool}`), ...asks];
  const first = labels[0];
  if (first === undefined) return undefined;
  return `waiting for you: ${first}${labels.length > 1 ? ` (+${labels.length - 1})` : ""}`;
}
