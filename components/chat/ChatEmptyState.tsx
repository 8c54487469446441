"use client";

import { DEMO_SERVERS_INFO } from "@/lib/demo-servers/catalog";
import styles from "./ChatEmptyState.module.css";

interface ChatEmptyStateProps {
  onPick: (prompt: string) => void;
  /** The demo model answers only these prompts; say so when it is the one in use. */
  usingDemo: boolean;
  /** Names of the connected servers; examples for others are marked. Undefined: unknown (the server-rendered page). */
  connectedServers?: readonly string[];
  /** Names of the servers still connecting: their examples say so rather than "not connected". */
  connectingServers?: readonly string[];
}

/** The empty chat: what code mode is, and the demo servers' example prompts (click to send). */
export function ChatEmptyState({ onPick, usingDemo, connectedServers, connectingServers = [] }: ChatEmptyStateProps) {
  return (
    <div className={styles.empty}>
      <h3>Chat in code mode</h3>
      <p>
        Ask a question: the model answers by writing one program against your servers&apos; typed API. The program runs in a sandbox in this browser, and only
        its result goes back to the model.
      </p>
      {usingDemo ? (
        <p className={styles.demo}>
          You are using the <b>offline demo model</b>: it answers the example prompts below with fixed programs that really run. Pick a real model in the
          settings to ask anything else.
        </p>
      ) : null}
      {DEMO_SERVERS_INFO.map((server) => {
        const missing = connectedServers !== undefined && !connectedServers.includes(server.name);
        const connecting = missing && connectingServers.includes(server.name);
        return (
          <section key={server.name} className={styles.group} aria-label={`${server.title} examples`}>
            <h4>
              {server.title}
              {connecting ? <span className={styles.missing}> · connecting…</span> : missing ? <span className={styles.missing}> · not connected</span> : null}
            </h4>
            <ul>
              {server.examplePrompts.map((prompt) => (
                <li key={prompt}>
                  <button type="button" className={styles.prompt} onClick={() => onPick(prompt)}>
                    {prompt}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
