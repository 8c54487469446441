"use client";

import { JsonView } from "@/components/timeline/JsonView";
import { readableContent } from "@/lib/mcp/result-display";
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import type { Tool } from "@modelcontextprotocol/client";
import { buildFormModel, fromArguments, initialValue, toArguments, ROOT_PATH, type FormValue } from "@/lib/forms";
import { useTestCall } from "@/components/hooks/use-test-call";
import type { TestCallStore } from "@/lib/mcp/test-calls";
import { SchemaField } from "./SchemaForm";
import dynamic from "next/dynamic";
import { toolResourceUri } from "@/lib/mcp-apps/tool-ui";
import styles from "./Tools.module.css";
import { messageOf } from "@/lib/text/error-message";
import { taskSummary } from "@/lib/timeline/task-text";

// An app's view (and its bridge) loads when a tool with an app is first called, never on the page's start.
const AppView = dynamic(() => import("@/components/apps/AppView").then((m) => m.AppView));

/** A form generated from the tool's input schema (or raw JSON), a Call button, and the raw result with its time. */
/** Saves a test call (server and tool as registered, and its arguments) as an eval case. */
export type SaveTestCall = (server: string, tool: string, args: Record<string, unknown>) => void;

export function TestCallForm({
  store,
  serverId,
  serverName,
  tool,
  onSaveCase,
}: {
  /** The page's test calls: a call outlives this form (a tab switch unmounts it). */
  store: TestCallStore;
  serverId: string;
  /** The server as registered (an app's calls are recorded under it). */
  serverName: string;
  tool: Tool;
  /** Saves these arguments as an eval case (the Evals dialog's suite). */
  onSaveCase?: (args: Record<string, unknown>) => void;
}) {
  const [saved, setSaved] = useState(false);
  const node = useMemo(() => buildFormModel(tool.inputSchema), [tool.inputSchema]);
  const test = useTestCall(store, serverId, tool);
  // The form shows the arguments of this tool's last call again (the call outlives the form).
  const [value, setValue] = useState<FormValue>(() => (test.lastArgs ? fromArguments(node, test.lastArgs) : initialValue(node)));
  const [mode, setMode] = useState<"form" | "json">(node.kind === "json" ? "json" : "form");
  const [jsonText, setJsonText] = useState(() => (test.lastArgs ? JSON.stringify(test.lastArgs, null, 2) : "{}"));
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [jsonError, setJsonError] = useState<string | undefined>(undefined);

  const currentArgs = (): { ok: true; args: Record<string, unknown> } | { ok: false } => {
    if (mode === "json") {
      try {
        const parsed: unknown = JSON.parse(jsonText || "{}");
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("Arguments must be a JSON object.");
        setJsonError(undefined);
        return { ok: true, args: parsed as Record<string, unknown> };
      } catch (error) {
        setJsonError(messageOf(error));
        return { ok: false };
      }
    }
    const converted = toArguments(node, value);
    if (!converted.ok) {
      setErrors(new Map(converted.errors.map((e) => [e.path, e.message])));
      return { ok: false };
    }
    setErrors(new Map());
    const args = converted.args && typeof converted.args === "object" && !Array.isArray(converted.args) ? (converted.args as Record<string, unknown>) : {};
    return { ok: true, args };
  };

  const switchMode = () => {
    if (mode === "form") {
      const converted = toArguments(node, value);
      setJsonText(JSON.stringify(converted.ok ? (converted.args ?? {}) : {}, null, 2));
      setMode("json");
    } else {
      try {
        setValue(fromArguments(node, JSON.parse(jsonText || "{}")));
        setJsonError(undefined);
        setMode("form");
      } catch (error) {
        setJsonError(`Fix the JSON first: ${messageOf(error)}`);
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const args = currentArgs();
    if (args.ok) test.call(args.args);
  };

  const state = test.state;
  return (
    <form className={styles.testCall} onSubmit={submit} aria-label={`Test-call ${tool.name}`}>
      <div className="toolbar">
        <h4>Test call</h4>
        <span className="spacer" />
        {node.kind !== "json" && (
          <button type="button" className={styles.smallButton} onClick={switchMode}>
            {mode === "form" ? "Edit as JSON" : "Back to form"}
          </button>
        )}
      </div>
      {mode === "json" ? (
        <label className="field">
          <span className={styles.fieldLabel}>Arguments (JSON)</span>
          <textarea rows={6} spellCheck={false} value={jsonText} onChange={(e) => setJsonText(e.target.value)} aria-label="Arguments JSON" />
          {jsonError && <span className="field-error">{jsonError}</span>}
        </label>
      ) : (
        <SchemaField node={node} value={value} onChange={setValue} path={ROOT_PATH} label="arguments" errors={errors} />
      )}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={state.status === "calling"}>
          Call {tool.name}
        </button>
        {state.status === "calling" && (
          <button type="button" onClick={test.cancel}>
            Cancel
          </button>
        )}
        {onSaveCase ? (
          <button
            type="button"
            title="Add a case to the eval suite: the model is asked to make this call, and the case checks it did, with these arguments"
            onClick={() => {
              const args = currentArgs();
              if (!args.ok) return;
              onSaveCase(args.args);
              setSaved(true);
            }}
          >
            Save as eval case
          </button>
        ) : null}
        {saved ? (
          <span className="muted" role="status">
            Saved: open Evals to run it.
          </span>
        ) : null}
      </div>
      {test.task && (
        <p className="muted small" role="status" data-testid="test-call-task">
          {taskSummary(test.task, serverName)}
          {test.task.messages.length > 0 && ` Latest: “${test.task.messages[test.task.messages.length - 1]}”`}
        </p>
      )}
      <TestCallResult
        state={state}
        app={
          state.status === "done" && toolResourceUri(tool) !== undefined ? (
            <AppView
              // A new call mounts the app anew, with that call's input and result.
              key={`${state.ms}:${JSON.stringify(test.lastArgs ?? {})}`}
              server={serverName}
              tool={tool}
              input={test.lastArgs ?? {}}
              result={state.result}
            />
          ) : undefined
        }
      />
    </form>
  );
}

/** The result: time and isError, the tool's MCP App when it has one (components/apps/AppView.tsx), then the JSON. */
function TestCallResult({ state, app }: { state: ReturnType<typeof useTestCall>["state"]; app?: ReactNode }) {
  if (state.status === "idle") return null;
  if (state.status === "calling") return <p className="muted">Calling…</p>;
  if (state.status === "failed") {
    return (
      <div className="error-box" role="alert" data-testid="test-call-error">
        {state.message}
        {state.ms !== undefined && ` (${state.ms.toFixed(0)} ms)`}
      </div>
    );
  }
  const { result, ms, warning } = state;
  return (
    <div className={styles.testResult} data-testid="test-call-result">
      <div className="stats">
        <span>
          time <b>{ms.toFixed(1)} ms</b>
        </span>
        <span>
          isError <b className={result.isError ? styles.errorText : ""}>{String(result.isError ?? false)}</b>
        </span>
      </div>
      {warning && <div className="error-box">{warning}</div>}
      {app}
      {result.structuredContent !== undefined && (
        <>
          <h4>structuredContent</h4>
          <JsonView value={result.structuredContent} label="structuredContent" openDepth={4} searchable copyable />
        </>
      )}
      <h4>content</h4>
      <JsonView value={readableContent(result.content)} label="content" openDepth={4} searchable copyable />
    </div>
  );
}
