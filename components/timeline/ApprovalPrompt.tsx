"use client";

import type { PendingApproval } from "@/lib/host-calls/approval-store";
import type { ApprovalDecision } from "@/lib/host-calls/approvals";
import { truncateForDisplay } from "@/lib/text/display";
import styles from "./Timeline.module.css";

const ARGS_PREVIEW = 300;

/** The approve / deny prompt on a waiting call's row; the arguments are shown as text, shortened. */
export function ApprovalPrompt({ approval, onDecide }: { approval: PendingApproval; onDecide: (callId: number, decision: ApprovalDecision) => void }) {
  const args = truncateForDisplay(approval.args ?? {}, ARGS_PREVIEW);
  const label = `${approval.server}.${approval.tool}`;
  return (
    <div className={styles.prompt} role="group" aria-label={`Approve ${label}?`}>
      <span>
        Run <b>{label}</b>? It may change something outside the sandbox.
      </span>
      <button type="button" className="primary" onClick={() => onDecide(approval.callId, "approve")}>
        Approve
      </button>
      <button type="button" onClick={() => onDecide(approval.callId, "deny")}>
        Deny
      </button>
      <button type="button" onClick={() => onDecide(approval.callId, "approve-all")} title="Approve this call and every later one in this run">
        Approve all for this run
      </button>
      <pre className={styles.promptArgs}>{args.text.replace(/\s+/g, " ")}</pre>
    </div>
  );
}
