/**
 * What `npm run agent` writes (scripts/agent.ts), kept readable: the model's answer streams to
 * stdout, status lines go to stderr on lines of their own (a status line never glues onto the
 * answer's unfinished line), each program says it runs once, and counts read as words. Pure: the
 * two streams are injected.
 */
import { plural } from "../text/display";

/** A place to write text (process.stdout, process.stderr, or a test's buffer). */
export interface TextSink {
  write(text: string): unknown;
}

/** The totals of a headless run, for its last line. */
export interface AgentSummary {
  modelCalls: number;
  /** Programs run (code mode) or tool calls made (classic mode). */
  work: { programs: number } | { toolCalls: number };
  inputTokens: number;
  outputTokens: number;
  stop: string;
}

/** The last status line of a run. */
export function summaryLine(summary: AgentSummary): string {
  const work = "programs" in summary.work ? plural(summary.work.programs, "program") : plural(summary.work.toolCalls, "tool call");
  return `${plural(summary.modelCalls, "model call")}, ${work}, ${summary.inputTokens} input and ${summary.outputTokens} output tokens; stop: ${summary.stop}`;
}

/** Writes the answer and the status lines of one run. */
export function createAgentPrinter(out: TextSink, err: TextSink) {
  let lineOpen = false;
  const announced = new Set<string>();
  const status = (text: string) => {
    if (lineOpen) {
      out.write("\n");
      lineOpen = false;
    }
    err.write(`· ${text}\n`);
  };
  return {
    /** More of the model's answer. */
    text(chunk: string): void {
      if (chunk === "") return;
      out.write(chunk);
      lineOpen = !chunk.endsWith("\n");
    },
    /** A program started (said once per program, however often the loop reports it). */
    running(id: string): void {
      if (announced.has(id)) return;
      announced.add(id);
      status(`program ${id} running`);
    },
    /** A program ended. */
    ended(id: string, outcome: string): void {
      status(`program ${id}: ${outcome}`);
    },
    /** Any other status line. */
    status,
    /** Ends the answer's line, if it is open. */
    endText(): void {
      if (lineOpen) out.write("\n");
      lineOpen = false;
    },
  };
}
