/**
 * The tasks the page's calls started, kept across reloads (lib/mcp/server-tasks.ts): tracked from
 * a call's reports, read back by a new page, asked about by id once no call follows them, and
 * cancelled or dismissed; a task its server no longer knows ends as failed, saying so.
 */
import { describe, expect, it } from "vitest";
import { MAX_TRACKED_TASKS, QUIET_MS, ServerTasksStore } from "@/lib/mcp/server-tasks";
import type { TaskStatusView } from "@/lib/mcp/tasks";

function memoryStorage() {
  const data = new Map<string, string>();
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe("server tasks", () => {
  it("a tracked task outlives the page: a new store over the same storage lists it, asks its server by id, and shows its end", async () => {
    const storage = memoryStorage();
    let now = 1_000;
    const first = new ServerTasksStore(
      storage,
      () => undefined,
      () => now,
    );
    first.track("srv", "modern", "slow", { taskId: "t1", status: "working", messages: ["Working slowly"], polls: 1 });
    expect(first.snapshot()).toMatchObject([{ taskId: "t1", serverName: "modern", tool: "slow", status: "working", message: "Working slowly" }]);

    const asked: string[] = [];
    let answer: TaskStatusView = { status: "working", statusMessage: "Still at it" };
    const reloaded = new ServerTasksStore(
      storage,
      () => ({ taskStatus: (id: string) => (asked.push(id), Promise.resolve(answer)), cancelTask: () => Promise.resolve() }),
      () => now,
    );
    expect(reloaded.snapshot().map((t) => t.taskId)).toEqual(["t1"]);
    await reloaded.refresh();
    expect(asked).toEqual([]); // reported on just now: not quiet yet
    now += QUIET_MS;
    await reloaded.refresh();
    expect(asked).toEqual(["t1"]);
    expect(reloaded.snapshot()[0]).toMatchObject({ status: "working", message: "Still at it" });
    answer = { status: "completed", statusMessage: "Done", outcome: "slow done" };
    now += QUIET_MS;
    await reloaded.refresh();
    expect(reloaded.snapshot()[0]).toMatchObject({ status: "completed", outcome: "slow done" });
    now += QUIET_MS;
    await reloaded.refresh();
    expect(asked).toHaveLength(2); // an ended task is not asked again
    reloaded.dismiss("t1");
    expect(new ServerTasksStore(storage, () => undefined).snapshot()).toEqual([]);
  });

  it("a task its server no longer knows ends as failed; cancel asks the server; a disconnected one cannot be cancelled", async () => {
    let now = 0;
    const cancelled: string[] = [];
    const unknown = Object.assign(new Error("Unknown task: t2"), { code: -32602 });
    const store = new ServerTasksStore(
      memoryStorage(),
      (id) =>
        id === "srv" ? { taskStatus: () => Promise.reject(unknown), cancelTask: (taskId: string) => (cancelled.push(taskId), Promise.resolve()) } : undefined,
      () => now,
    );
    store.track("srv", "modern", "stuck", { taskId: "t2", status: "working", messages: [], polls: 0 });
    store.track("srv", "modern", "stuck", { taskId: "t3", status: "working", messages: [], polls: 0 });
    store.track("gone", "offline", "stuck", { taskId: "t4", status: "working", messages: [], polls: 0 });
    await store.cancel("t3");
    expect(cancelled).toEqual(["t3"]);
    await expect(store.cancel("t4")).rejects.toThrow("offline is not connected");
    now += QUIET_MS;
    await store.refresh();
    expect(store.snapshot().find((t) => t.taskId === "t2")).toMatchObject({ status: "failed", outcome: "Its server no longer knows this task." });
    expect(store.snapshot().find((t) => t.taskId === "t3")?.status).toBe("cancelled");
  });

  it("keeps at most MAX_TRACKED_TASKS, ended ones dropped first; corrupt storage is ignored", () => {
    const storage = memoryStorage();
    const store = new ServerTasksStore(storage, () => undefined);
    store.track("srv", "s", "t", { taskId: "running", status: "working", messages: [], polls: 0 });
    for (let i = 0; i < MAX_TRACKED_TASKS; i++) store.track("srv", "s", "t", { taskId: `done-${i}`, status: "completed", messages: [], polls: 0 });
    expect(store.snapshot()).toHaveLength(MAX_TRACKED_TASKS);
    expect(store.snapshot().some((t) => t.taskId === "running")).toBe(true);
    expect(store.snapshot().some((t) => t.taskId === "done-0")).toBe(false);
    storage.data.set("code-mode-playground.tasks", "{broken");
    expect(new ServerTasksStore(storage, () => undefined).snapshot()).toEqual([]);
  });
});
