import type { RunResult } from "@/lib/sandbox/types";
import { LogList } from "./LogList";

/** A finished run: the value as pretty JSON or the typed error, then console lines and stats. */
export function RunResultView({ result }: { result: RunResult }) {
  return (
    <div className="output">
      {result.ok ? (
        <section aria-label="Returned value">
          <h3>Value</h3>
          <pre data-testid="run-value">{formatValue(result.value)}</pre>
        </section>
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
