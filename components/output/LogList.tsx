import type { LogEntry } from "@/lib/sandbox/types";

/** Console lines with time (ms since the run started) and level; text is rendered as text, never HTML. */
export function LogList({ logs }: { logs: LogEntry[] }) {
  return (
    <ol className="logs">
      {logs.map((entry, index) => (
        <li key={index} className={`level-${entry.level}`}>
          <span className="time">{entry.time.toFixed(1)} ms</span>
          <span className={`level level-${entry.level}`}>{entry.level}</span>
          <span className="text">{entry.text}</span>
        </li>
      ))}
    </ol>
  );
}
