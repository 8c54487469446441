"use client";

import { useState } from "react";
import type { RunResult } from "@/lib/sandbox/types";
import { JsonView } from "@/components/timeline/JsonView";
import { useCopy } from "@/components/hooks/use-copy";
import { LogList } from "./LogList";

/**
 * A finished run: the value (a foldable tree for objects and arrays, or its JSON text; copyable)
 * or the typed error, then stats and console lines. The tree keeps a bounded height, so the
 * stats and console below a large value stay in reach.
 */
export function RunResultView({ result }: { result: RunResult }) {
  return (
    <div className="output">
      {result.ok ? (
        <ValueSection value={result.value} />
      ) : (
        <section aria-label="Error">
          <h3>Error</h3>
          <div className="error-box" data-testid="run-error">
            <span className="kind">{result.error.kind}</span>
            {result.error.line !== undefined && (
              <span className="muted">
                {" "}
                at line {result.error.line}
                {result.error.column !== undefined ? `:${result.error.column}` : ""}
              </span>
            )}
            {"\n"}
            {result.error.message}
            {result.error.call && `\nin ${result.error.call.namespace}.${result.error.call.name} (call #${result.error.call.callId})`}
            {result.error.stack && `\n${result.error.stack}`}
          </div>
        </section>
      )}
      <div className="stats" aria-label="Run statistics">
        <span>
          duration <b>{result.stats.wallMs.toFixed(1)} ms</b>
        </span>
        <span>
          tool calls <b>{result.stats.hostCalls}</b>
        </span>
        <span>
          peak in flight <b>{result.stats.peakInFlight}</b>
        </span>
      </div>
      <section aria-label="Console">
        <h3>Console</h3>
        {result.logs.length > 0 ? <LogList logs={result.logs} /> : <p className="muted">No console output.</p>}
      </section>
    </div>
  );
}

function formatValue(value: unknown): string {
  if (value === undefined) return "undefined";
  return JSON.stringify(value, null, 2);
}

function ValueSection({ value }: { value: unknown }) {
  const structured = typeof value === "object" && value !== null;
  const [view, setView] = useState<"tree" | "text">(structured ? "tree" : "text");
  const { copied, copy } = useCopy<"value">();
  return (
    <section aria-label="Returned value">
      <div className="toolbar">
        <h3>Value</h3>
        {structured && (
          <div role="group" aria-label="Show the value as">
            <button type="button" aria-pressed={view === "tree"} onClick={() => setView("tree")}>
              Tree
            </button>
            <button type="button" aria-pressed={view === "text"} onClick={() => setView("text")}>
              Text
            </button>
          </div>
        )}
        <button type="button" onClick={() => copy("value", formatValue(value))} title="Copies the value as JSON">
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {view === "tree" && structured ? <JsonView value={value} label="Returned value" searchable /> : <pre data-testid="run-value">{formatValue(value)}</pre>}
    </section>
  );
}
