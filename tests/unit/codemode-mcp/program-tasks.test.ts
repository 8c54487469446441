/**
 * The code-mode server's task records (lib/codemode-mcp/program-tasks.ts), without a server: the
 * status message, the answers a waiting task takes, what an ended task refuses, and the TTL.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { callsSoFar, ProgramTasks, UnknownTaskError } from "@/lib/codemode-mcp/program-tasks";
import type { AskClient, ExecuteOutcome } from "@/lib/codemode-mcp/service";

const done = (value: unknown): ExecuteOutcome => ({ ok: true, value, logs: [], calls: { total: 0, failed: 0, tools: {} }, wallMs: 0, runId: "r" });
const toResult = (outcome: ExecuteOutcome) => ({ content: [{ type: "text", text: JSON.stringify(outcome.ok ? outcome.value : null) }] });
const form = () => ({ method: "elicitation/create", params: { message: "Allow?" } });
const question = { server: "store", tool: "place_order", namespace: "store", name: "place_order", args: {} };
let next = 0;
const tasks = (extra: { thresholdMs?: number; ttlMs?: number } = {}) => new ProgramTasks({ newId: () => `t${++next}`, thresholdMs: 50, ...extra });

afterEach(() => {
  vi.useRealTimers();
});

describe("program tasks", () => {
  it("words the calls so far", () => {
    expect(callsSoFar({ total: 0, failed: 0, tools: {} })).toBe("Running: no tool calls yet");
    expect(callsSoFar({ total: 3, failed: 1, tools: { "lab.echo": 2, "store.get_cart": 1 } })).toBe(
      "Running: 3 tool calls so far (lab.echo ×2, store.get_cart ×1), 1 failed",
    );
  });

  it("a question makes a task at once; only an explicit yes to the asked key allows it; a wrong key or a second answer is refused", async () => {
    const store = tasks({ thresholdMs: 60_000 });
    let answer: boolean | undefined;
    const started = await store.run(
      "agent",
      async (ask: AskClient, signal) => {
        answer = await ask(question, signal);
        return done(answer);
      },
      toResult,
      form,
    );
    expect(started.kind).toBe("task");
    const taskId = started.kind === "task" ? started.task.taskId : "";
    expect(store.get(taskId, "agent")).toMatchObject({ status: "input_required", inputRequests: { approve_1: form() } });
    expect(() => store.update(taskId, "agent", { approve_2: { action: "accept", content: { approve: true } } })).toThrow(/waits for an answer to "approve_1"/);
    store.update(taskId, "agent", { approve_1: { action: "accept", content: {} } });
    await expect.poll(() => store.get(taskId, "agent").status).toBe("completed");
    expect(answer).toBe(false);
    expect(() => store.update(taskId, "agent", { approve_1: { action: "accept", content: { approve: true } } })).toThrow(/not waiting for input/);
    // Cancelling an ended task is acknowledged and changes nothing.
    store.cancel(taskId, "agent");
    expect(store.get(taskId, "agent").status).toBe("completed");
    expect(() => store.get(taskId, "other")).toThrow(UnknownTaskError);
  });

  it("an ended task is forgotten after its TTL", async () => {
    vi.useFakeTimers();
    const store = tasks({ thresholdMs: 10, ttlMs: 1_000 });
    const running = store.run("agent", () => new Promise<ExecuteOutcome>((resolve) => setTimeout(() => resolve(done(1)), 100)), toResult, form);
    await vi.advanceTimersByTimeAsync(20);
    const started = await running;
    const taskId = started.kind === "task" ? started.task.taskId : "";
    await vi.advanceTimersByTimeAsync(100);
    expect(store.get(taskId, "agent")).toMatchObject({ status: "completed", result: { resultType: "complete" } });
    await vi.advanceTimersByTimeAsync(1_001);
    expect(() => store.get(taskId, "agent")).toThrow(/Unknown task/);
    expect(store.size).toBe(0);
  });
});
