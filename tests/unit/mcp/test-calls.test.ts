import { describe, expect, it } from "vitest";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { McpConnection } from "@/lib/mcp/live-connection";
import { TestCallStore, testCallKey } from "@/lib/mcp/test-calls";
import { connectToServer } from "@/lib/mcp/connection";
import { startModernServer } from "../../fixtures/mcp/modern-server";

const tool: Tool = { name: "sleep", inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] } };

/** A connection whose calls wait until the test answers them. */
function slowConnection() {
  const waiting: Array<{ resolve: (r: CallToolResult) => void; signal?: AbortSignal }> = [];
  const connection = {
    callTool: (_name: string, _args: unknown, options?: { signal?: AbortSignal }) =>
      new Promise<CallToolResult>((resolve, reject) => {
        options?.signal?.addEventListener("abort", () => reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error("aborted")));
        waiting.push({ resolve, ...(options?.signal ? { signal: options.signal } : {}) });
      }),
  } as unknown as McpConnection;
  return { connection, waiting };
}

describe("TestCallStore", () => {
  it("keeps a running call and its arguments for whoever looks next (a form mounted again after a tab switch), then its answer", async () => {
    const { connection, waiting } = slowConnection();
    const store = new TestCallStore(
      (id) => (id === "lab" ? connection : undefined),
      () => 1000,
    );
    const key = testCallKey("lab", "sleep");
    store.call("lab", tool, { ms: 500 });
    expect(store.get(key)).toMatchObject({ state: { status: "calling" }, args: { ms: 500 } });
    // The form went away and came back: it reads the same entry.
    let heard = 0;
    const unsubscribe = store.subscribe(() => heard++);
    waiting[0]?.resolve({ content: [{ type: "text", text: "slept" }] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toBe(1);
    expect(store.get(key)).toMatchObject({ state: { status: "done", ms: 0, result: { content: [{ text: "slept" }] } }, args: { ms: 500 } });
    unsubscribe();
    expect(store.get(testCallKey("lab", "other")).state.status).toBe("idle");
  });

  it("cancels, warns about arguments that do not match the schema, and says when the server is not connected", async () => {
    const { connection, waiting } = slowConnection();
    const store = new TestCallStore((id) => (id === "lab" ? connection : undefined));
    const key = testCallKey("lab", "sleep");
    store.call("lab", tool, { ms: "soon" });
    store.cancel(key);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.get(key).state).toMatchObject({ status: "failed", message: "Cancelled by you" });
    store.call("lab", tool, { ms: "soon" });
    waiting[1]?.resolve({ content: [] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.get(key).state).toMatchObject({ status: "done", warning: expect.stringContaining("does not match the input schema") as unknown });
    store.call("gone", tool, {});
    expect(store.get(testCallKey("gone", "sleep")).state).toEqual({ status: "failed", message: "The server is not connected." });
  });
});

describe("TestCallStore against a strict 2026-07-28 server with tasks", () => {
  it("a test call its server runs as a task carries the task's reports to the end, and hands each to the page", async () => {
    const server = await startModernServer({ taskMs: 300 });
    const connection = await connectToServer(
      { id: "modern", name: "modern", transport: "streamable-http", url: `${server.url}/mcp`, enabled: true },
      { baseUrl: "https://play.example", proxyUrl: "/api/mcp/proxy", via: "direct", timeoutMs: 5_000 },
    );
    try {
      const heard: string[] = [];
      const store = new TestCallStore(
        () => connection,
        undefined,
        (serverId, toolName, report) => heard.push(`${serverId}/${toolName}: ${report.status}`),
      );
      const slow = (await connection.listTools()).find((t) => t.name === "slow")!;
      const key = testCallKey("modern", "slow");
      store.call("modern", slow, { ms: 300 });
      await expect.poll(() => store.get(key).state.status, { timeout: 10_000 }).toBe("done");
      expect(store.get(key).task).toMatchObject({ taskId: expect.stringMatching(/^task-/) as unknown, status: "completed" });
      expect(heard[0]).toBe("modern/slow: working");
      expect(heard.at(-1)).toBe("modern/slow: completed");
      // A new call starts without the last one's task.
      const echo = (await connection.listTools()).find((t) => t.name === "echo")!;
      store.call("modern", echo, { message: "plain" });
      await expect.poll(() => store.get(testCallKey("modern", "echo")).state.status).toBe("done");
      expect(store.get(testCallKey("modern", "echo")).task).toBeUndefined();
    } finally {
      await connection.close();
      await server.close();
    }
  });
});
