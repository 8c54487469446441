"use client";

import { prettyDeclarations } from "@/lib/codemode/pretty-declarations";
import { useMemo } from "react";
import type { Tool } from "@modelcontextprotocol/client";
import type { ConnectedServer, UseMcpResult } from "@/components/hooks/use-mcp";
import type { ToolCatalog } from "@/lib/codemode";
import { declarationsFor } from "@/lib/codemode";
import { toolBadges } from "./annotations";
import { TestCallForm, type SaveTestCall } from "./TestCallForm";
import { Badge } from "@/components/ui/Badge";
import styles from "./Tools.module.css";

export interface ToolDetailsProps {
  /** Saves a test call as an eval case. */
  onSaveCase?: SaveTestCall;
  server: ConnectedServer;
  tool: Tool;
  mcp: UseMcpResult;
  catalog: ToolCatalog;
  onBack: () => void;
}

/** One tool: description, annotations, its typed declaration, lint findings, schemas and a test-call form. */
export function ToolDetails({ server, tool, mcp, catalog, onBack, onSaveCase }: ToolDetailsProps) {
  const declaration = useMemo(() => {
    const ns = catalog.declarations.namespaces.find((n) => n.server === server.config.name);
    const decl = ns?.tools.find((t) => t.tool === tool.name);
    return ns && decl
      ? { call: `${ns.namespace}.${decl.name}`, text: declarationsFor(catalog.declarations, [{ namespace: ns.namespace, name: decl.name }]) }
      : undefined;
  }, [catalog.declarations, server.config.name, tool.name]);
  const findings = catalog.lint.filter((f) => f.server === server.config.name && f.tool === tool.name);

  return (
    <div className={styles.toolDetails} aria-label={`Tool ${tool.name}`}>
      <div className="toolbar">
        <button type="button" onClick={onBack} aria-label="Back to tools">
          ← Tools
        </button>
        <span className="muted">{server.config.name}</span>
      </div>
      <h3 className={styles.toolTitle}>
        {tool.name}
        {tool.title && <span className="muted"> · {tool.title}</span>}
      </h3>
      <div className="toolbar">
        {toolBadges(tool).map((b) => (
          <Badge key={b.label} tone={b.tone} title={b.title}>
            {b.label}
          </Badge>
        ))}
      </div>
      {tool.description ? <p className={styles.toolDescription}>{tool.description}</p> : <p className="muted">No description.</p>}
      {declaration && (
        <details open>
          <summary>
            Typed API: <code>{declaration.call}(…)</code>
          </summary>
          <pre className="code">{prettyDeclarations(declaration.text)}</pre>
        </details>
      )}
      {findings.length > 0 && (
        <details open>
          <summary>Schema lint ({findings.length})</summary>
          <ul className={styles.lint}>
            {findings.map((f, i) => (
              <li key={i} className={f.severity === "error" ? styles.lintError : styles.lintWarning}>
                <b>{f.severity}</b> {f.message}
                {f.paths && f.paths.length > 0 && <code> {f.paths.join(", ")}</code>}
                <div className="muted">Fix: {f.fix}</div>
              </li>
            ))}
          </ul>
        </details>
      )}
      <details>
        <summary>Input schema</summary>
        <pre className="code">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
      <details>
        <summary>Output schema{tool.outputSchema ? "" : " (none)"}</summary>
        <pre className="code">
          {tool.outputSchema
            ? JSON.stringify(tool.outputSchema, null, 2)
            : "The server declares no outputSchema: code must inspect the value before relying on its shape."}
        </pre>
      </details>
      <TestCallForm
        key={`${server.config.id}:${tool.name}`}
        store={mcp.testCalls}
        serverId={server.config.id}
        serverName={server.config.name}
        tool={tool}
        {...(onSaveCase ? { onSaveCase: (args: Record<string, unknown>) => onSaveCase(server.config.name, tool.name, args) } : {})}
      />
    </div>
  );
}
