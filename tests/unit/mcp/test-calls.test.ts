import { describe, expect, it } from "vitest";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { McpConnection } from "@/lib/mcp/live-connection";
import { TestCallStore, testCallKey } from "@/lib/mcp/test-calls";

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
