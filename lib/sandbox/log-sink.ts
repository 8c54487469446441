import { truncateUtf8, utf8ByteLength } from "./utf8";
import type { LogEntry, LogLevel } from "./types";

const LEVELS: ReadonlySet<string> = new Set<LogLevel>(["log", "info", "warn", "error", "debug"]);

/**
 * Collects console lines up to a byte budget. Over the budget the run goes on: the line that
 * crosses it is cut, one `warn` marker line says so, and later lines are dropped. Truncating
 * (rather than failing the run) keeps the program's value, which is what the model needs.
 */
export class LogSink {
  readonly entries: LogEntry[] = [];
  private usedBytes = 0;
  private droppedLines = 0;
  private closed = false;

  constructor(
    private readonly limitBytes: number,
    private readonly onEntry: (entry: LogEntry) => void,
  ) {}

  /** Adds a line; returns false once the budget is spent, so the guest can stop formatting. */
  add(level: string, text: string, time: number): boolean {
    if (this.closed) {
      this.droppedLines++;
      return false;
    }
    const safeLevel: LogLevel = LEVELS.has(level) ? (level as LogLevel) : "log";
    const bytes = utf8ByteLength(text);
    if (this.usedBytes + bytes <= this.limitBytes) {
      this.usedBytes += bytes;
      this.push({ level: safeLevel, text, time });
      return true;
    }
    const kept = truncateUtf8(text, this.limitBytes - this.usedBytes);
    if (kept !== "") this.push({ level: safeLevel, text: kept, time });
    this.usedBytes = this.limitBytes;
    this.closed = true;
    this.push({ level: "warn", text: `[log output truncated: over the ${this.limitBytes}-byte limit; later lines dropped]`, time });
    return false;
  }

  /** Lines dropped after the budget was spent (not counting the cut line). */
  get dropped(): number {
    return this.droppedLines;
  }

  private push(entry: LogEntry): void {
    this.entries.push(entry);
    this.onEntry(entry);
  }
}
