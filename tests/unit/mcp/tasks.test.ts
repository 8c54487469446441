/**
 * Calls that become tasks (docs/mcp-client.md, "Tasks"), against a strict 2026-07-28 server
 * that offers the tasks extension: the call is polled to its end and answers the task's own
 * question through the page's elicitation handler; stopping the caller cancels the task on the
 * server; a task that never ends is bounded by the caller's signal; a server's unknown task id
 * and a task that fails come back as clear errors; calls that stay plain keep their rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type ConnectOptions, type McpConnection } from "@/lib/mcp/connection";
import type { TaskReport } from "@/lib/mcp/tasks";
import { connectServers } from "@/lib/host-calls/node/connect-servers";
import type { ServerConfig } from "@/lib/mcp/types";
import { startModernServer, type ModernServer } from "../../fixtures/mcp/modern-server";

let server: ModernServer;
let plain: ModernServer;
const open: McpConnection[] = [];
beforeAll(async () => {
  [server, plain] = await Promise.all([startModernServer({ taskMs: 600 }), startModernServer({ tasks: false })]);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all([server.close(), plain.close()]);
});

const config = (url: string): ServerConfig => ({ id: url, name: "s", transport: "streamable-http", url, headers: {}, enabled: true });
async function connect(url: string, extra: Partial<ConnectOptions> = {}): Promise<McpConnection> {
  const connection = await connectToServer(config(url), {
    baseUrl: "https://play.example",
    proxyUrl: "/api/mcp/proxy",
    via: "direct",
    timeoutMs: 5_000,
    ...extra,
  });
  open.push(connection);
  return connection;
}

describe("tasks", () => {
  it("a call that becomes a task: polled to its end, its question answered through the page's handler, each status reported", async () => {
    const asked: string[] = [];
    const connection = await connect(`${server.url}/mcp`, {
      elicit: (_config, params) => {
        asked.push(params.message);
        return Promise.resolve({ action: "accept" as const, content: { appendix: true } });
      },
    });
    expect(connection.tasks).toBe(true);
    const reports: TaskReport[] = [];
    const result = await connection.callTool("report", {}, { onTask: (task) => reports.push(task) });
    expect(result.structuredContent).toEqual({ pages: 12, appendix: true });
    expect(asked).toEqual(["Include the appendix?"]);
    const statuses = reports.map((r) => r.status);
    expect(statuses[0]).toBe("working");
    expect(statuses).toContain("input_required");
    expect(statuses[statuses.length - 1]).toBe("completed");
    const last = reports[reports.length - 1];
    expect(last?.messages).toEqual(["Gathering the figures", "Waiting for an answer", "Writing the report", "Done"]);
    expect(last?.polls).toBeGreaterThan(1);
    expect(server.methods).toContain("tasks/update");
  });

  it("declining the task's question is the server's to decide: this one writes the report without the appendix", async () => {
    const connection = await connect(`${server.url}/mcp`, { elicit: () => Promise.resolve({ action: "decline" as const }) });
    const result = await connection.callTool("report", {});
    expect(result.structuredContent).toEqual({ pages: 9, appendix: false });
  });

  it("stopping the caller cancels the task on the server (tasks/cancel), and the call rejects with the caller's reason", async () => {
    const connection = await connect(`${server.url}/mcp`);
    const stop = new AbortController();
    const reports: TaskReport[] = [];
    const call = connection.callTool("stuck", {}, { signal: stop.signal, onTask: (task) => reports.push(task) });
    await expect.poll(() => reports.length).toBeGreaterThan(0);
    const taskId = reports[0]?.taskId ?? "";
    stop.abort(new Error("Stopped by the person"));
    await expect(call).rejects.toThrow("Stopped by the person");
    await expect.poll(() => server.tasks.get(taskId)?.status).toBe("cancelled");
    expect(server.methods).toContain("tasks/cancel");
  });

  it("a task that never ends is bounded by the caller's own deadline, and cancelled when it passes", async () => {
    const connection = await connect(`${server.url}/mcp`);
    const before = server.tasks.size;
    const error = (await connection.callTool("stuck", {}, { signal: AbortSignal.timeout(400) }).catch((e: unknown) => e)) as Error;
    expect(error.name).toBe("TimeoutError");
    const task = [...server.tasks.values()][before];
    await expect.poll(() => task?.status).toBe("cancelled");
  });

  it("a task the server no longer knows (its status asked for an unknown id) fails the call with the server's words", async () => {
    const connection = await connect(`${server.url}/mcp`);
    const reports: TaskReport[] = [];
    const call = connection.callTool("stuck", {}, { onTask: (task) => reports.push(task) });
    await expect.poll(() => reports.length).toBeGreaterThan(0);
    server.tasks.delete(reports[0]?.taskId ?? "");
    const error = (await call.catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/Unknown task/);
  });

  it("plain calls on a server with tasks keep their multi-round-trip input; a server without the extension is not asked to make tasks", async () => {
    const answers = (_config: ServerConfig, params: { message: string }) => {
      const content: Record<string, string> = params.message.startsWith("Your name") ? { name: "Ada" } : { colour: "green" };
      return Promise.resolve({ action: "accept" as const, content });
    };
    const withTasks = await connect(`${server.url}/mcp`, { elicit: answers });
    expect((await withTasks.callTool("two_questions", {})).structuredContent).toEqual({ name: "Ada", colour: "green" });
    const without = await connect(`${plain.url}/mcp`, { elicit: answers });
    expect(without.tasks).toBe(false);
    expect((await without.callTool("two_questions", {})).structuredContent).toEqual({ name: "Ada", colour: "green" });
    expect(plain.methods.filter((m) => m.startsWith("tasks/"))).toEqual([]);
  });

  it("the Node hosts (npm run agent, evals, the code-mode server) connect the same way: a task runs to its end, its question declined with no one to ask", async () => {
    const connected = await connectServers([{ ...config(`${server.url}/mcp`), name: "reports" }], { baseUrl: "http://127.0.0.1" });
    try {
      const result = await connected.servers[0]?.connection.callTool("report", {});
      expect(result?.structuredContent).toEqual({ pages: 9, appendix: false });
    } finally {
      await connected.close();
    }
  });

  it("a call that becomes a task carries its Mcp-Param-* headers on the tools/call alone, which the server checks against its arguments", async () => {
    const connection = await connect(`${server.url}/mcp`);
    const tools = await connection.listTools();
    expect(JSON.stringify(tools.find((t) => t.name === "regional")?.inputSchema)).toContain("x-mcp-header");
    const from = server.methods.length;
    const reports: TaskReport[] = [];
    const result = await connection.callTool("regional", { region: "Zürich", ms: 200 }, { onTask: (report) => reports.push(report) });
    expect(result.content).toEqual([{ type: "text", text: "slow done" }]);
    expect(reports.at(-1)?.status).toBe("completed");
    const sent = server.methods.slice(from).map((method, i) => ({ method, headers: server.paramHeaders[from + i] }));
    expect(sent[0]).toEqual({ method: "tools/call", headers: { "mcp-param-region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=` } });
    const followUps = sent.slice(1);
    expect(followUps.map((s) => s.method)).toContain("tasks/get");
    expect(followUps.every((s) => Object.keys(s.headers ?? {}).length === 0)).toBe(true);
  });

  it("a task's status asked by its id (as after a reload): working while it runs, then completed with the start of its result", async () => {
    const connection = await connect(`${server.url}/mcp`);
    const reports: TaskReport[] = [];
    const call = connection.callTool("slow", { ms: 600 }, { onTask: (task) => reports.push(task) });
    await expect.poll(() => reports.length).toBeGreaterThan(0);
    const taskId = reports[0]?.taskId ?? "";
    expect(await connection.taskStatus?.(taskId)).toMatchObject({ status: "working", statusMessage: "Working slowly" });
    await call;
    expect(await connection.taskStatus?.(taskId)).toEqual({ status: "completed", statusMessage: "Done", outcome: "slow done" });
    // A connection that did not start it (the page after a reload) asks by id too.
    const later = await connect(`${server.url}/mcp`);
    expect(await later.taskStatus?.(taskId)).toEqual({ status: "completed", statusMessage: "Done", outcome: "slow done" });
    const unknown = (await connection.taskStatus?.("no-such-task").catch((e: unknown) => e)) as { code?: number };
    expect(unknown.code).toBe(-32602);
  });

  it("a server whose rounds never end stops at the cap of rounds on the tasks path too", async () => {
    let asked = 0;
    const connection = await connect(`${server.url}/mcp`, {
      elicit: () => {
        asked += 1;
        return Promise.resolve({ action: "accept" as const, content: { ok: true } });
      },
    });
    const error = (await connection.callTool("endless", {}).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/10 input-required rounds|after 10 rounds/);
    expect(asked).toBe(10);
  });
});
