"use client";

import { useState, type FormEvent } from "react";
import type { ServerInputIssue } from "@/lib/mcp/registry";
import type { ServerActions } from "@/lib/playground/server-actions";
import type { ServerConfig, TransportKind } from "@/lib/mcp/types";
import { formatPairs, parseArgLines, parseCommandLine, parseEnvLines, parseHeaderLines } from "@/lib/mcp/form-text";
import { ERA_CHOICE_LABEL, type ProtocolEraChoice } from "@/lib/mcp/protocol-era";
import styles from "./Servers.module.css";

/** Adds a server, or edits one when `server` is given. Field errors come from the registry's own checks. */
export function ServerForm({ actions, server, onDone }: { actions: ServerActions; server?: ServerConfig; onDone: () => void }) {
  const [name, setName] = useState(server?.name ?? "");
  const [transport, setTransport] = useState<TransportKind>(server?.transport ?? "streamable-http");
  const [url, setUrl] = useState(server?.url ?? "");
  const [headers, setHeaders] = useState(formatPairs(server?.headers, ": "));
  const [command, setCommand] = useState(server?.command ?? "");
  const [args, setArgs] = useState((server?.args ?? []).join("\n"));
  const [env, setEnv] = useState(formatPairs(server?.env, "="));
  const [cwd, setCwd] = useState(server?.cwd ?? "");
  const [cap, setCap] = useState(server?.maxCallsInFlight === undefined ? "" : String(server.maxCallsInFlight));
  const [era, setEra] = useState<ProtocolEraChoice>(server?.protocolEra ?? "auto");
  const [issues, setIssues] = useState<ServerInputIssue[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedHeaders = parseHeaderLines(headers);
    const parsedEnv = parseEnvLines(env);
    const commandLine = parseCommandLine(command);
    const found: ServerInputIssue[] = [];
    if (!parsedHeaders.ok) found.push({ field: "headers", message: parsedHeaders.message });
    if (!parsedEnv.ok) found.push({ field: "env", message: parsedEnv.message });
    if (transport === "stdio" && !commandLine.ok) found.push({ field: "command", message: commandLine.message });
    if (found.length > 0) return setIssues(found);
    // Empty: no cap. Anything else is checked by the registry (a whole number from 1).
    const maxCallsInFlight = cap.trim() === "" ? undefined : Number(cap.trim());
    const input =
      transport === "stdio"
        ? {
            name,
            transport,
            // A pasted command line's words after the first come before the Arguments box's lines.
            command: commandLine.ok ? commandLine.command : command,
            args: [...(commandLine.ok ? commandLine.args : []), ...parseArgLines(args)],
            env: parsedEnv.ok ? parsedEnv.value : {},
            ...(cwd ? { cwd } : {}),
            maxCallsInFlight,
          }
        : { name, transport, url: url.trim(), headers: parsedHeaders.ok ? parsedHeaders.value : {}, maxCallsInFlight, protocolEra: era };
    const result = server ? actions.update(server.id, input) : actions.add({ ...input, enabled: true });
    if (!result.ok) return setIssues(result.issues);
    onDone();
  };

  const issue = (field: ServerInputIssue["field"]) => issues.find((i) => i.field === field)?.message;
  return (
    <form className={styles.serverForm} onSubmit={submit} aria-label={server ? `Edit ${server.name}` : "Add server"}>
      <Field label="Name (the code namespace)" error={issue("name")}>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="weather" autoFocus />
      </Field>
      <Field label="Transport" error={issue("transport")}>
        <select value={transport} onChange={(e) => setTransport(e.target.value as TransportKind)}>
          <option value="streamable-http">Streamable HTTP</option>
          <option value="sse">SSE (legacy)</option>
          <option value="stdio">stdio (local command)</option>
        </select>
      </Field>
      {transport === "stdio" ? (
        <>
          <Field label="Command" error={issue("command")}>
            <input
              value={command}
              onChange={(e) => {
                setCommand(e.target.value);
                // The parse below says what will run now; an error about the old text would contradict it.
                setIssues((all) => all.filter((i) => i.field !== "command"));
              }}
              placeholder="npx -y @modelcontextprotocol/server-memory"
              spellCheck={false}
            />
          </Field>
          <CommandPreview command={command} args={args} />
          <Field label="Arguments (one per line)">
            <textarea rows={2} value={args} onChange={(e) => setArgs(e.target.value)} placeholder={"--root\n/a path with spaces"} />
          </Field>
          <Field label="Environment (KEY=value per line; kept in this browser only)" error={issue("env")}>
            <textarea rows={2} value={env} onChange={(e) => setEnv(e.target.value)} spellCheck={false} />
          </Field>
          <Field label="Working directory">
            <input value={cwd} onChange={(e) => setCwd(e.target.value)} />
          </Field>
          <p className="muted small">stdio servers run through the app&apos;s local bridge, which only exists when the app listens on loopback.</p>
        </>
      ) : (
        <>
          <Field label="URL" error={issue("url")}>
            <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/mcp" />
          </Field>
          <Field label="Headers (Name: value per line; kept in this browser only)" error={issue("headers")}>
            <textarea rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" spellCheck={false} />
          </Field>
          {transport === "streamable-http" && (
            <Field label="Protocol era" error={issue("protocolEra")}>
              <select value={era} onChange={(e) => setEra(e.target.value as ProtocolEraChoice)}>
                {(["auto", "modern", "legacy"] as const).map((choice) => (
                  <option key={choice} value={choice}>
                    {ERA_CHOICE_LABEL[choice]}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </>
      )}
      <Field label="Calls in flight at once (empty: no limit)" error={issue("maxCallsInFlight")}>
        <input
          value={cap}
          onChange={(e) => setCap(e.target.value)}
          inputMode="numeric"
          placeholder="no limit"
          title="For servers that lose data under concurrent calls (server-memory: 1). Calls over the limit wait their turn, in order, and the timeline shows them queued."
        />
      </Field>
      <div className="toolbar">
        <button type="submit" className="primary">
          {server ? "Save" : "Add"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What will run, once the Command box holds more than one word: the split a person should check. */
function CommandPreview({ command, args }: { command: string; args: string }) {
  const line = parseCommandLine(command);
  if (!line.ok || line.args.length === 0) return null;
  const all = [...line.args, ...parseArgLines(args)];
  return (
    <p className="muted small" data-testid="command-preview">
      Runs <code>{line.command}</code> with {all.length === 1 ? "the argument" : `${all.length} arguments`}{" "}
      {all.map((arg, i) => (
        <span key={i}>
          {i > 0 ? " " : ""}
          <code>{arg}</code>
        </span>
      ))}
    </p>
  );
}

function Field({ label, error, children }: { label: string; error?: string | undefined; children: React.ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
