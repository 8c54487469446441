"use client";

import { useStore } from "@/components/hooks/use-store";
import { useMemo, useState } from "react";
import type { BrowserOAuth } from "@/lib/mcp/browser/browser-oauth";
import type { FlowStep } from "@/lib/mcp/oauth/flow-log";
import styles from "./Servers.module.css";

export interface OAuthPanelProps {
  serverId: string;
  serverName: string;
  oauth: BrowserOAuth;
  /** Opens the popup (inside the click) and reconnects. */
  onSignIn: (restart: boolean) => void;
  /** Open the panel from the start (the server just asked to sign in). */
  open: boolean;
}

const NO_STEPS: readonly FlowStep[] = [];

function expiry(at: number | undefined): string {
  return at === undefined ? "" : ` · token until ${new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })} (refreshed when needed)`;
}

/** A server's OAuth state and the flow view: every step with its request and response, secrets masked. */
export function OAuthPanel({ serverId, serverName, oauth, onSignIn, open }: OAuthPanelProps) {
  const log = oauth.logFor(serverId);
  const steps = useStore(log, undefined, { fallback: NO_STEPS });
  // A string selection, so an unchanged description does not re-render.
  const described = useStore(oauth.store, () => JSON.stringify(oauth.describe(serverId)), {
    fallback: JSON.stringify({ signedIn: false, preRegistered: false }),
  });
  const state = useMemo(() => JSON.parse(described) as ReturnType<BrowserOAuth["describe"]>, [described]);
  const [clientId, setClientId] = useState(state.preRegistered ? (state.clientId ?? "") : "");
  const [clientSecret, setClientSecret] = useState("");
  const [signingOut, setSigningOut] = useState(false);
  const summary = state.signedIn ? `OAuth · signed in${state.scope ? ` (${state.scope})` : ""}${expiry(state.expiresAt)}` : "OAuth · not signed in";
  return (
    <details className={styles.oauth} open={open} aria-label={`OAuth of ${serverName}`}>
      <summary>{summary}</summary>
      <div className={styles.oauthActions}>
        <button type="button" onClick={() => onSignIn(true)} title="Forget this server's tokens and registration, then sign in from the start">
          Restart sign-in
        </button>
        {state.signedIn && (
          <button
            type="button"
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void oauth.signOut(serverId).finally(() => setSigningOut(false));
            }}
            title="Revoke the tokens at the authorization server and delete them here"
          >
            {signingOut ? "Signing out…" : "Sign out"}
          </button>
        )}
      </div>
      {steps.length === 0 ? (
        <p className="muted small">
          No OAuth steps yet. When the server answers 401, each step of the flow (discovery, registration, authorization, token) shows here.
        </p>
      ) : (
        <ol className={styles.flowSteps} aria-label={`OAuth flow of ${serverName}`}>
          {steps.map((step, index) => (
            <FlowStepRow key={index} step={step} />
          ))}
        </ol>
      )}
      <form
        className={styles.oauthClient}
        onSubmit={(event) => {
          event.preventDefault();
          oauth.setClient(serverId, clientId, clientSecret);
          setClientSecret("");
        }}
      >
        <div className="muted small">
          Pre-registered client (when the authorization server does not allow registration). Kept with the other secrets in this browser.
        </div>
        <input
          aria-label="OAuth client id"
          placeholder="client id"
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <input
          aria-label="OAuth client secret"
          placeholder={state.preRegistered ? "client secret (saved; type to replace)" : "client secret (optional)"}
          type="password"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          autoComplete="off"
        />
        <button type="submit">{clientId.trim() === "" ? "Use registration" : "Use this client"}</button>
      </form>
    </details>
  );
}

function FlowStepRow({ step }: { step: FlowStep }) {
  const mark = step.ok ? "✓" : step.optional ? "·" : "✗";
  const tone = step.ok ? styles.stepOk : step.optional ? styles.stepSkipped : styles.stepFailed;
  return (
    <li className={tone}>
      <span aria-hidden="true">{mark}</span> <b>{step.title}</b>
      {step.response ? <span className="muted"> · HTTP {step.response.status}</span> : null}
      {step.durationMs !== undefined ? <span className="muted"> · {Math.round(step.durationMs)} ms</span> : null}
      {step.error ? <div className={styles.stepError}>{step.error}</div> : null}
      {step.note ? <div className="muted small">{step.note}</div> : null}
      {(step.request ?? step.response) && (
        <details>
          <summary className="small">Request and response</summary>
          <pre className={styles.stepDetail}>
            {step.request
              ? `${step.request.method} ${step.request.url}\n${headerLines(step.request.headers)}${step.request.body ? `\n${step.request.body}` : ""}`
              : ""}
            {step.response
              ? `\n\n← HTTP ${step.response.status}\n${headerLines(step.response.headers)}${step.response.body ? `\n${step.response.body}` : ""}`
              : ""}
          </pre>
        </details>
      )}
    </li>
  );
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\n`)
    .join("");
}
