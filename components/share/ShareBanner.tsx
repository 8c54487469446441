"use client";

import { useState } from "react";
import type { ShareLinkState } from "@/lib/share/browser/share-link-store";
import { useCopy } from "@/components/hooks/use-copy";
import type { ServerInput } from "@/lib/mcp/server-input";
import type { ServerConfig } from "@/lib/mcp/types";
import type { JsonObject } from "@/lib/share/json-value";
import { shareServersToMcpJson } from "@/lib/share/mcp-json";
import type { OpenShareResult } from "@/lib/share/browser/open";
import { planSharedServers } from "@/lib/share/restore";
import { describeShare } from "@/lib/share/summary";
import { sharedRunLabel } from "@/lib/share/run-label";
import { SharedServerRow } from "./SharedServerRow";
import type { AddServerResult } from "./SharedServerRow";
import styles from "./ShareBanner.module.css";

/** Props of the opened-link banner. */
export interface ShareBannerProps {
  /** Where opening the share stands (lib/share/browser/share-link-store.ts). */
  state: ShareLinkState;
  /** Drops the share: the banner goes and the link leaves the address bar. */
  onDismiss: () => void;
  /** The servers this person has registered, to spot shared ones already there. */
  registered: readonly ServerConfig[];
  /** Adds a server to the registry (`registry.add`); only ever called from a click. */
  onAddServer: (input: ServerInput) => AddServerResult;
  /** Replays a recorded run offline, without connecting anything; omit to hide the buttons. */
  onReplayRun?: (run: JsonObject, index: number) => void;
  /** Hides the banner; what the link brought (servers to add, runs in the history) stays. */
  onHide: () => void;
  /** Starts with the details shown (default: one line). */
  defaultExpanded?: boolean;
}

const SOURCE: Record<OpenShareResult["source"], string> = { link: "from a link", "short-link": "from a short link", file: "from a file" };

/** Says what an opened share contains; servers needing secrets ask for them; nothing runs or connects by itself. */
export function ShareBanner({ state, onDismiss, registered, onAddServer, onReplayRun, onHide, defaultExpanded = false }: ShareBannerProps) {
  const { copied, copy } = useCopy<"mcp-json" | "code">();
  // One line until the person asks for the details: the link must not take over the screen.
  const [expanded, setExpanded] = useState(defaultExpanded);
  if (state.status === "none") return null;
  if (state.status === "loading") {
    return (
      <section className={styles.banner} aria-label="Shared playground" aria-busy="true">
        <span className="muted">Opening the shared playground {SOURCE[state.source]}…</span>
      </section>
    );
  }
  if (state.status === "error") {
    return (
      <section className={`${styles.banner} ${styles.error}`} aria-label="Shared playground">
        <div className="error-box" role="alert">
          Could not open the share {SOURCE[state.source]}: {state.message}
        </div>
        <div className="toolbar">
          <button type="button" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      </section>
    );
  }

  const { state: share, warnings, source } = state.opened;
  const plans = planSharedServers(share.servers, registered);
  const toAdd = plans.filter((plan) => plan.status !== "registered").length;
  return (
    <section className={styles.banner} aria-label="Shared playground">
      <div className={styles.headline}>
        <strong>Shared playground {SOURCE[source]}</strong>
        <span className={styles.contents} title={describeShare(share).join("\n")}>
          {describeShare(share).join(" · ") || "empty"}
        </span>
        {toAdd > 0 && !expanded ? <span className="small">{toAdd === 1 ? "1 server to add" : `${toAdd} servers to add`}</span> : null}
        <button type="button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? "Hide details" : "Details"}
        </button>
        <button
          type="button"
          onClick={onHide}
          title="Hides this banner; the servers to add and the recorded runs stay (Runs tab, and the header's Shared link button)"
        >
          Dismiss
        </button>
      </div>
      {expanded && (
        <>
          {share.code !== undefined && (
            <span className="small">
              The shared code is in the editor{share.inputs !== undefined ? ", with its Inputs (the Inputs button shows them)" : ""}. It has not run: nothing
              runs until you click Run.
            </span>
          )}
          {warnings.length > 0 && (
            <ul className={styles.notes}>
              {warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          {plans.length > 0 && (
            <ul className="stack-list" aria-label="Shared servers">
              {plans.map((plan, index) => (
                <SharedServerRow key={`${index}:${plan.server.name}`} plan={plan} registered={registered} onAddServer={onAddServer} />
              ))}
            </ul>
          )}
          {onReplayRun && share.runs.length > 0 && (
            <div aria-label="Recorded runs" role="group">
              <span className="small">Recorded runs (also in the Runs tab). Replaying one answers the next Run from its recording, offline:</span>
              <ul className="stack-list">
                {share.runs.map((run, index) => {
                  const { label, outcome } = sharedRunLabel(run, index);
                  return (
                    <li key={index} className={styles.run}>
                      <button type="button" onClick={() => onReplayRun(run, index)}>
                        Replay run {index + 1}
                      </button>{" "}
                      <span className="mono">{label}</span> {outcome ? <span className="muted">{outcome}</span> : null}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
          <div className="toolbar">
            {share.servers.length > 0 && (
              <button type="button" onClick={() => copy("mcp-json", shareServersToMcpJson(share.servers, { baseUrl: window.location.origin }).text)}>
                {copied === "mcp-json" ? "Copied" : "Copy as mcp.json"}
              </button>
            )}
            {share.code !== undefined && (
              <button type="button" onClick={() => copy("code", share.code ?? "")}>
                {copied === "code" ? "Copied" : "Copy code"}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
