/**
 * How the timeline words a call the server turned into a task (lib/mcp/tasks.ts): the row's
 * badge and the details' sentence. Pure.
 */
import type { CallTask } from "./call-records";

const STATUS_WORDS: Record<CallTask["status"], string> = {
  working: "working",
  input_required: "asks you",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

/** The row's badge: "task working", "task asks you", "task completed", … */
export function taskBadge(task: CallTask): { text: string; tone: "neutral" | "accent" | "warn" | "error" } {
  const tone = task.status === "failed" ? "error" : task.status === "input_required" ? "warn" : task.status === "working" ? "accent" : ("neutral" as const);
  return { text: `task ${STATUS_WORDS[task.status]}`, tone };
}

/** The details' sentence: which task, where it stands, how many times its status was asked for. */
export function taskSummary(task: CallTask, server: string): string {
  const where =
    task.status === "working"
      ? "is working"
      : task.status === "input_required"
        ? "is waiting for your answer"
        : task.status === "completed"
          ? "completed"
          : task.status === "failed"
            ? "failed"
            : "was cancelled";
  const polls = task.polls === 1 ? "status checked once" : `status checked ${task.polls} times`;
  return `${server} ran this call as task ${task.taskId}, which ${where} (${polls}).`;
}
