"use client";

import { useState } from "react";
import type { ServerInput } from "@/lib/mcp/server-input";
import type { ServerConfig } from "@/lib/mcp/types";
import { slotKey, toServerInput } from "@/lib/share/restore";
import { escapeHidden } from "@/lib/text/hidden-characters";
import type { SharedServerPlan } from "@/lib/share/restore";
import type { SecretSlot } from "@/lib/share/schema";
import styles from "./ShareBanner.module.css";
import { Badge, type BadgeTone } from "@/components/ui/Badge";

/** What adding a server gave: the registry's answer, or undefined while the registry is loading. */
export type AddServerResult = { ok: true } | { ok: false; issues: readonly { message: string }[] } | undefined;

const SLOT_LABEL: Record<SecretSlot["where"], string> = {
  header: "Header",
  env: "Environment variable",
  query: "URL query parameter",
  "url-credentials": "URL user:password",
  arg: "Argument",
};

const BADGE: Record<SharedServerPlan["status"], { text: string; tone: BadgeTone }> = {
  registered: { text: "already registered", tone: "ok" },
  ready: { text: "no secrets needed", tone: "ok" },
  "needs-connection": { text: "needs connection", tone: "warn" },
  "local-command": { text: "runs a local command", tone: "error" },
};

/** One shared server: where it points, whether it needs secrets, and a way to add it. */
export function SharedServerRow({
  plan,
  registered,
  onAddServer,
}: {
  plan: SharedServerPlan;
  registered: readonly ServerConfig[];
  onAddServer: (input: ServerInput) => AddServerResult;
}) {
  const { server, status } = plan;
  const [values, setValues] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  // Escaped: a command is shown exactly as it will run, line breaks and hidden characters spelled out.
  const address = escapeHidden(server.transport === "stdio" ? [server.command ?? "", ...(server.args ?? [])].join(" ") : (server.url ?? ""));
  const badge = BADGE[status];

  const add = () => {
    const result = onAddServer(toServerInput(server, values, registered));
    if (result === undefined) setOutcome({ ok: false, text: "The server list is still loading; try again in a moment." });
    else if (result.ok) setOutcome({ ok: true, text: "Added; it connects from the Servers panel." });
    else setOutcome({ ok: false, text: result.issues.map((issue) => issue.message).join("; ") });
  };

  return (
    <li className={styles.server}>
      <div className={styles.serverLine}>
        <strong>{server.name}</strong>
        <Badge tone={badge.tone}>{badge.text}</Badge>
        <span className={styles.address}>{address}</span>
      </div>
      {status === "registered" && <span className="muted small">Matches your server “{plan.registeredName}”.</span>}
      {status === "needs-connection" && (
        <span className="muted small">
          The sharer&apos;s configuration had secrets, which are never shared. Enter your own to connect
          {server.secrets.length === 0 ? " (add it, then set them in the Servers panel)" : ""}.
        </span>
      )}
      {status === "local-command" && (
        <span className="small" role="note">
          Adding this server runs the command above on your computer. Add it only if you trust it.
        </span>
      )}
      {status !== "registered" && server.secrets.length > 0 && (
        <div className={styles.slots}>
          {server.secrets.map((slot) => (
            <label key={slotKey(slot)} style={{ display: "contents" }}>
              <span>
                {SLOT_LABEL[slot.where]} <code>{slot.name}</code>
              </span>
              <input
                type="password"
                autoComplete="off"
                value={values[slotKey(slot)] ?? ""}
                onChange={(e) => setValues((old) => ({ ...old, [slotKey(slot)]: e.target.value }))}
              />
            </label>
          ))}
        </div>
      )}
      {status !== "registered" && outcome?.ok !== true && (
        <div className="toolbar">
          <button type="button" onClick={add}>
            {status === "local-command" ? "Add local server" : status === "needs-connection" ? "Connect" : "Add server"}
          </button>
        </div>
      )}
      {outcome && (
        <span className={outcome.ok ? "small" : "field-error small"} role="status">
          {outcome.text}
        </span>
      )}
    </li>
  );
}
