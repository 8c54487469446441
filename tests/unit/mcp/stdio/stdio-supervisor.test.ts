/**
 * The stdio supervisor's restart rule with a scripted connect: backoff doubling to the cap while
 * starts fail, back to the first delay once a child lived long enough, and the child's output
 * only in the log (the real-process test is tests/unit/codemode-mcp/faults.test.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { superviseStdio } from "@/lib/mcp/stdio/node/stdio-supervisor";
import type { NodeStdioConnection } from "@/lib/mcp/stdio/node/stdio-connection";
import type { ServerConfig } from "@/lib/mcp/types";

const server = { id: "s", name: "mem", transport: "stdio", command: "mem", enabled: true } as ServerConfig;

/** A fake child: `die()` ends it as an exit would. */
function fakeChild(pid: number) {
  let onExit: ((output: string) => void) | undefined;
  const connection: NodeStdioConnection = {
    capabilities: {},
    protocolVersion: "2025-11-25",
    pid,
    listTools: () => Promise.resolve([{ name: "read_graph", inputSchema: { type: "object" } }]),
    readResource: () => Promise.reject(new Error("none")),
    callTool: () => Promise.resolve({ content: [{ type: "text", text: `pid ${pid}` }] }),
    onExit(listener) {
      onExit = listener;
      return () => undefined;
    },
    close: () => Promise.resolve(),
  };
  return { connection, die: (output = "") => onExit?.(output) };
}

afterEach(() => vi.useRealTimers());

describe("superviseStdio", () => {
  it("restarts with a doubling backoff while starts fail, says so to callers, and logs the child's output only", async () => {
    vi.useFakeTimers({ now: 0 });
    const children = [fakeChild(1), fakeChild(2)];
    const attempts: number[] = [];
    let failures = 2;
    const log: string[] = [];
    const connect = () => {
      attempts.push(Date.now());
      if (attempts.length === 1) return Promise.resolve(children[0]!.connection);
      if (failures-- > 0) return Promise.reject(new Error("spawn failed"));
      return Promise.resolve(children[1]!.connection);
    };
    const stdio = await superviseStdio(server, { connect, log: (line) => log.push(line), initialDelayMs: 500, maxDelayMs: 1_500 });
    children[0]!.die("DATABASE_URL=postgres://admin:secret@db");
    expect(stdio.state()).toMatchObject({ state: "down", nextAttemptAt: 500 });
    const refused = await stdio.callTool("read_graph", {}).catch((e: Error) => e.message);
    expect(refused).toBe(`Server "mem" is down: its process ended. It is being started again (next attempt in 1 s); try the call again then.`);
    expect(refused).not.toContain("secret");
    expect(log.join("\n")).toContain("postgres://admin:secret@db");
    await vi.advanceTimersByTimeAsync(500 + 1_000 + 1_500);
    // First start at 0, then 500 ms, 1 000 ms, 1 500 ms (the cap) after each failure.
    expect(attempts).toEqual([0, 500, 1_500, 3_000]);
    expect(stdio.state()).toMatchObject({ state: "up", pid: 2, restarts: 1 });
    expect(await stdio.callTool("read_graph", {})).toMatchObject({ content: [{ text: "pid 2" }] });
    await stdio.close();
  });

  it("a child that lived past stableMs resets the backoff; close stops restarting", async () => {
    vi.useFakeTimers({ now: 0 });
    const children = [fakeChild(1), fakeChild(2), fakeChild(3)];
    let next = 0;
    const attempts: number[] = [];
    const connect = () => {
      attempts.push(Date.now());
      return Promise.resolve(children[next++]!.connection);
    };
    const stdio = await superviseStdio(server, { connect, log: () => undefined, initialDelayMs: 100, stableMs: 1_000 });
    children[0]!.die();
    await vi.advanceTimersByTimeAsync(100);
    // Dies at once: the next wait doubles.
    children[1]!.die();
    expect(stdio.state()).toMatchObject({ state: "down", nextAttemptAt: 300 });
    await vi.advanceTimersByTimeAsync(200);
    await vi.advanceTimersByTimeAsync(5_000);
    // Lived 5 s: back to 100 ms.
    children[2]!.die();
    expect(stdio.state()).toMatchObject({ state: "down", nextAttemptAt: Date.now() + 100 });
    await stdio.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(attempts).toHaveLength(3);
  });
});
