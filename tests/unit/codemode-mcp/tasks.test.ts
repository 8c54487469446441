/**
 * Long programs as tasks on the code-mode server (docs/benchmarks.md, "The code-mode MCP
 * server"), driven by the playground's own client (which takes tasks through ext-tasks): a
 * program past `taskAfterMs` answers as a task that says how many calls it made so far and ends
 * with the program's result; a short one answers at once; stopping the caller cancels the task
 * and the sandbox run with it; a destructive call inside a task is asked as the task's input;
 * another client cannot see the task.
 */
import { describe, expect, it } from "vitest";
import { connectToServer, type McpConnection } from "@/lib/mcp/connection";
import type { TaskReport } from "@/lib/mcp/tasks";
import { RunFeed, type FeedUpdate } from "@/lib/codemode-mcp/run-feed";
import { codeModeHarness, HARNESS_TOKEN, postModern } from "./fixtures";

const harness = codeModeHarness();

async function pageClient(url: string, extra: { elicit?: Parameters<typeof connectToServer>[1]["elicit"]; name?: string } = {}): Promise<McpConnection> {
  return connectToServer(
    { id: url, name: "code-mode", transport: "streamable-http", url, headers: { authorization: `Bearer ${HARNESS_TOKEN}` }, enabled: true },
    {
      baseUrl: "http://127.0.0.1",
      proxyUrl: "/api/mcp/proxy",
      via: "direct",
      ...(extra.name ? { clientInfo: { name: extra.name, version: "1" } } : {}),
      ...(extra.elicit ? { elicit: extra.elicit } : {}),
    },
  );
}

describe("long programs as tasks", () => {
  it("a program past the threshold answers as a task that counts its calls, and ends with the program's result; a short one answers at once", async () => {
    const { url } = await harness.serve({ taskAfterMs: 700 });
    const connection = await pageClient(url);
    try {
      expect(connection.tasks).toBe(true);
      const reports: TaskReport[] = [];
      const code = `const a = await lab.echo({ message: "one" }); await lab.sleep({ ms: 1500 }); const b = await lab.echo({ message: "two" }); return [a.message, b.message];`;
      const result = await connection.callTool("execute_code", { code }, { onTask: (task) => reports.push(task) });
      expect(result.structuredContent).toMatchObject({ value: ["one", "two"], calls: { total: 3 } });
      expect(reports[0]?.status).toBe("working");
      // At the threshold (700 ms, room for a cold sandbox on a busy machine) the first echo is done
      // and the sleep is still going.
      expect(reports[0]?.messages).toEqual(["Running: 1 tool call so far (lab.echo ×1)"]);
      expect(reports.at(-1)?.status).toBe("completed");

      const quick: TaskReport[] = [];
      const fast = await connection.callTool("execute_code", { code: "return 6 * 7;" }, { onTask: (task) => quick.push(task) });
      expect(fast.structuredContent).toMatchObject({ value: 42 });
      expect(quick).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it("a 90-second program (past any client's request timeout) becomes a task the client polls to its result", { timeout: 150_000 }, async () => {
    const { url } = await harness.serve({ taskAfterMs: 1_000, limits: { wallMs: 120_000 } });
    const connection = await pageClient(url);
    try {
      const reports: TaskReport[] = [];
      const code = `let slept = 0; for (let i = 0; i < 9; i++) { await lab.sleep({ ms: 10000 }); slept += 10; } return slept;`;
      const started = Date.now();
      const result = await connection.callTool("execute_code", { code }, { onTask: (task) => reports.push(task) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(90_000);
      expect(result.structuredContent).toMatchObject({ value: 90, calls: { total: 9 } });
      expect(reports.at(-1)?.status).toBe("completed");
      // The status said how far it got while it ran.
      expect(reports.flatMap((r) => r.messages ?? [])).toContain("Running: 5 tool calls so far (lab.sleep ×5)");
    } finally {
      await connection.close();
    }
  });

  it("stopping the caller cancels the task, and the sandbox run stops with it", async () => {
    const feed = new RunFeed();
    const updates: FeedUpdate[] = [];
    feed.subscribe((update) => updates.push(update));
    const { url } = await harness.serve({ taskAfterMs: 200 }, { feed });
    const connection = await pageClient(url);
    try {
      const stop = new AbortController();
      const reports: TaskReport[] = [];
      const code = `for (let i = 0; i < 20; i++) await lab.sleep({ ms: 200 }); return "finished";`;
      const call = connection.callTool("execute_code", { code }, { signal: stop.signal, onTask: (task) => reports.push(task) });
      await expect.poll(() => reports.length, { timeout: 5_000 }).toBeGreaterThan(0);
      stop.abort(new Error("Stopped by the person"));
      await expect(call).rejects.toThrow("Stopped by the person");
      await expect.poll(() => updates.find((u) => u.done)?.record.events.at(-1), { timeout: 5_000 }).toMatchObject({ type: "end", ok: false });
      const end = updates.find((u) => u.done)?.record.events.at(-1) as { error?: { kind?: string } } | undefined;
      expect(end?.error?.kind).toBe("cancelled");
    } finally {
      await connection.close();
    }
  });

  it("a destructive call inside a task is the task's question: yes sends it, and another client cannot see the task", async () => {
    const { url } = await harness.serve({ taskAfterMs: 200, destructive: { store: "ask" } });
    const asked: string[] = [];
    const connection = await pageClient(url, {
      elicit: (_config, params) => {
        asked.push(params.message);
        return Promise.resolve({ action: "accept" as const, content: { approve: true } });
      },
    });
    try {
      const reports: TaskReport[] = [];
      const code = `await lab.sleep({ ms: 300 }); try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;
      const result = await connection.callTool("execute_code", { code }, { onTask: (task) => reports.push(task) });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("store.place_order");
      expect(reports.map((r) => r.status)).toContain("input_required");
      // It reached the store, which knows no such cart.
      expect(JSON.stringify(result.structuredContent)).toContain("cart-nope");

      const taskId = reports[0]?.taskId ?? "";
      const ask = (name: string, capabilities: Record<string, unknown>) =>
        postModern(
          url,
          {
            method: "tasks/get",
            params: {
              taskId,
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { name, version: "1" },
                "io.modelcontextprotocol/clientCapabilities": capabilities,
              },
            },
          },
          taskId,
        ).then((answer) => JSON.stringify(answer.json));
      const text = await ask("someone-else", { extensions: { "io.modelcontextprotocol/tasks": {} } });
      expect(text).toContain("-32602");
      expect(text).toContain("Unknown task");
      // Without the extension declared on the request, the tasks methods are refused as such (-32021).
      const undeclared = await ask("code-mode-playground", {});
      expect(undeclared).toContain("-32021");
    } finally {
      await connection.close();
    }
  });
});
