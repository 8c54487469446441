"use client";

import { useState } from "react";
import { useSandboxBench } from "@/components/hooks/use-sandbox-bench";

/** A page that measures the sandbox in this browser; `npm run bench` drives it with Playwright. */
export function SandboxBench() {
  const bench = useSandboxBench();
  const [started, setStarted] = useState(false);
  return (
    <main className="output" style={{ maxWidth: 900, margin: "0 auto", padding: 24 }}>
      <h1>Sandbox benchmarks</h1>
      <p className="muted">
        Measures the QuickJS sandbox in this browser: cold start, run overhead, host-call overhead and a compute loop. It takes about half a minute; keep the
        tab in front.
      </p>
      <div>
        <button
          type="button"
          className="primary"
          disabled={bench.status === "running"}
          onClick={() => {
            setStarted(true);
            bench.start();
          }}
        >
          Run sandbox benchmarks
        </button>{" "}
        <span role="status" aria-label="Benchmark status">
          {bench.status === "running" ? `running: ${bench.step}` : started ? bench.status : ""}
        </span>
      </div>
      {bench.error && <div className="error-box">{bench.error}</div>}
      {bench.rows.length > 0 && (
        <>
          <table>
            <thead>
              <tr>
                <th align="left">benchmark</th>
                <th align="right">median</th>
                <th align="left">note</th>
              </tr>
            </thead>
            <tbody>
              {bench.rows.map((row) => (
                <tr key={row.name}>
                  <td>{row.name}</td>
                  <td align="right">
                    {(row.median ?? row.value ?? NaN).toFixed(3)} {row.unit}
                  </td>
                  <td className="muted">{row.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <pre data-testid="bench-json">{JSON.stringify(bench.rows)}</pre>
        </>
      )}
    </main>
  );
}
