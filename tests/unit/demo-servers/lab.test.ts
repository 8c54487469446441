import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roll } from "@/lib/demo-servers/lab";
import { connectClient } from "../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { checked } from "../../fixtures/mcp/tools";
import type { CheckedClient } from "../../fixtures/mcp/tools";

let host: Awaited<ReturnType<typeof startDemoHost>>;
let s: CheckedClient;
beforeAll(async () => {
  host = await startDemoHost();
  s = await checked(await connectClient(host.urlFor("lab")));
});
afterAll(async () => {
  await s.client.close();
  await host.close();
});

describe("lab demo", () => {
  it("echoes its arguments", async () => {
    expect(await s.call("echo", { message: "hi", data: { a: [1, null, "x"] } })).toEqual({ message: "hi", data: { a: [1, null, "x"] } });
    expect(await s.call("echo", { message: "only" })).toEqual({ message: "only" });
  });

  it("sleeps and sends progress notifications over the SSE response", async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const started = Date.now();
    const result = await s.client.callTool({ name: "sleep", arguments: { ms: 300 } }, { onprogress: (p) => progress.push(p) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(result.structuredContent).toEqual({ sleptMs: 300, progressNotifications: 3 });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it("sends no progress when none was asked for", async () => {
    expect(await s.call("sleep", { ms: 0 })).toEqual({ sleptMs: 0, progressNotifications: 0 });
  });

  it("fail answers with isError and the message", async () => {
    expect(await s.callError("fail", { message: "boom" })).toBe("boom");
  });

  it("protocol_error answers with a JSON-RPC error, not a result", async () => {
    const call = s.client.callTool({ name: "protocol_error", arguments: { message: "nope", code: -32602 } });
    await expect(call).rejects.toBeInstanceOf(ProtocolError);
    await expect(s.client.callTool({ name: "protocol_error", arguments: { message: "nope", code: -32602 } })).rejects.toMatchObject({
      code: -32602,
      message: "nope",
      data: { tool: "protocol_error" },
    });
    await expect(s.client.callTool({ name: "protocol_error", arguments: {} })).rejects.toMatchObject({ code: -32603 });
  });

  it("still dispatches the other tools after intercepting tools/call", async () => {
    expect(await s.call("echo", { message: "after" })).toEqual({ message: "after" });
  });

  it("big returns about n KB", async () => {
    const out = await s.call<{ kb: number; items: unknown[] }>("big", { kb: 64 });
    const bytes = JSON.stringify(out).length;
    expect(out.items).toHaveLength(64);
    expect(bytes).toBeGreaterThan(60 * 1024);
    expect(bytes).toBeLessThan(70 * 1024);
  });

  it("flaky fails or succeeds by seed and attempt, the same way every time", async () => {
    const outcome = async (seed: string, attempt: number) => {
      const result = await s.client.callTool({ name: "flaky", arguments: { seed, rate: 0.5, attempt } });
      return result.isError ? "fail" : "ok";
    };
    const first = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((a) => outcome("demo", a)));
    const again = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((a) => outcome("demo", a)));
    expect(again).toEqual(first);
    expect(first).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((a) => (roll(`demo:${a}`) < 0.5 ? "fail" : "ok")));
    expect(new Set(first).size).toBe(2);
    expect(await s.callError("flaky", { seed: 1, rate: 1 })).toMatch(/retry with attempt 1/);
    expect(await s.call("flaky", { seed: 1, rate: 0 })).toMatchObject({ seed: 1, attempt: 0, rate: 0 });
  });
});
