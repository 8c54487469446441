import { describe, expect, it } from "vitest";
import { taskBadge, taskSummary } from "@/lib/timeline/task-text";
import type { CallTask } from "@/lib/timeline/call-records";

const task = (status: CallTask["status"], polls = 3): CallTask => ({ taskId: "t-1", status, messages: [], polls });

describe("task text", () => {
  it("the row's badge says where the task stands, in the tone of its state", () => {
    expect(taskBadge(task("working"))).toEqual({ text: "task working", tone: "accent" });
    expect(taskBadge(task("input_required"))).toEqual({ text: "task asks you", tone: "warn" });
    expect(taskBadge(task("completed"))).toEqual({ text: "task completed", tone: "neutral" });
    expect(taskBadge(task("failed"))).toEqual({ text: "task failed", tone: "error" });
    expect(taskBadge(task("cancelled"))).toEqual({ text: "task cancelled", tone: "neutral" });
  });

  it("the details name the server, the task and how often its status was checked", () => {
    expect(taskSummary(task("completed", 19), "modern")).toBe("modern ran this call as task t-1, which completed (status checked 19 times).");
    expect(taskSummary(task("input_required", 1), "modern")).toBe("modern ran this call as task t-1, which is waiting for your answer (status checked once).");
    expect(taskSummary(task("cancelled", 0), "s")).toBe("s ran this call as task t-1, which was cancelled (status checked 0 times).");
  });
});
