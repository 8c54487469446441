/**
 * Per-server caps on calls in flight (lib/host-calls/call-caps.ts): calls over the cap wait their turn in
 * order and report it; other servers are not held up; a cancelled wait leaves the queue. And the
 * reason for the setting, measured on the real `server-memory`: 200 writes under Promise.all from
 * one program keep all 200 with a cap of 1 (issue 28 item 10).
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CallCaps, type CapWait } from "@/lib/host-calls/call-caps";
import type { HostFunctions } from "@/lib/sandbox/types";
import { connectServers, type ConnectedServers } from "@/lib/host-calls/node/connect-servers";
import { createCodeModeService } from "@/lib/codemode-mcp/service";
import { parseCodeModeConfig } from "@/lib/codemode-mcp/config";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import { MEMORY_BIN } from "../codemode-mcp/fixtures";

const names = [
  { server: "Slow Server", namespace: "slow", tools: [{ tool: "work", fn: "work" }] },
  { server: "fast", namespace: "fast", tools: [{ tool: "work", fn: "work" }] },
];

function gatedHost() {
  const log: string[] = [];
  const pending: Array<() => void> = [];
  const work = (label: string) => (args: unknown) =>
    new Promise((resolve) => {
      log.push(`start ${label} ${String((args as { n: number }).n)}`);
      pending.push(() => resolve(args));
    });
  const host: HostFunctions = { slow: { work: work("slow") }, fast: { work: work("fast") } };
  return { host, log, finishOne: () => pending.shift()?.(), pending };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("CallCaps", () => {
  it("holds a server to its cap, in call order, reports the wait, and leaves other servers alone", async () => {
    const { host, log, finishOne, pending } = gatedHost();
    const reports: Array<{ callId: number; capWait: CapWait }> = [];
    const caps = new CallCaps((server) => (server === "Slow Server" ? 1 : undefined));
    const capped = caps.wrap(host, names, (callId, info) => reports.push({ callId, capWait: info.capWait }));
    const signal = new AbortController().signal;
    const calls = [1, 2, 3].map((n) => capped.slow!.work!({ n }, signal, { callId: n }));
    const other = capped.fast!.work!({ n: 9 }, signal, { callId: 9 });
    await tick();
    expect([...log].sort()).toEqual(["start fast 9", "start slow 1"]);
    expect(caps.stats("Slow Server")).toEqual({ active: 1, waiting: 2 });
    expect(reports).toEqual([
      { callId: 2, capWait: { cap: 1, state: "waiting" } },
      { callId: 3, capWait: { cap: 1, state: "waiting" } },
    ]);
    while (pending.length > 0) {
      finishOne();
      await tick();
    }
    expect(await Promise.all([...calls, other])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 9 }]);
    expect(log.filter((line) => line.includes("slow"))).toEqual(["start slow 1", "start slow 2", "start slow 3"]);
    expect(reports.filter((r) => r.capWait.state === "done").map((r) => r.callId)).toEqual([2, 3]);
    expect(caps.stats("Slow Server")).toEqual({ active: 0, waiting: 0 });
  });

  it("a call cancelled while it waits leaves the queue and never starts", async () => {
    const { host, log, finishOne } = gatedHost();
    const caps = new CallCaps(() => 1);
    const capped = caps.wrap(host, names);
    const first = capped.slow!.work!({ n: 1 }, new AbortController().signal, { callId: 1 });
    const stop = new AbortController();
    const second = capped.slow!.work!({ n: 2 }, stop.signal, { callId: 2 });
    await tick();
    stop.abort(new Error("stopped"));
    await expect(second).rejects.toThrow("stopped");
    finishOne();
    await first;
    expect(log).toEqual(["start slow 1"]);
    expect(caps.stats("Slow Server")).toEqual({ active: 0, waiting: 0 });
  });
});

describe("server-memory under Promise.all", () => {
  const opened: ConnectedServers[] = [];
  afterAll(() => Promise.all(opened.map((c) => c.close())));

  /** A code-mode service over a fresh server-memory (its own file) with `codeMode`. */
  async function serviceWith(codeMode: Record<string, unknown>) {
    const dir = mkdtempSync(path.join(tmpdir(), "cmp-caps-"));
    const memory = { command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") } };
    const parsed = parseCodeModeConfig({ mcpServers: { memory }, codeMode }, 2);
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const connected = await connectServers(parsed.servers, { baseUrl: "http://127.0.0.1" });
    opened.push(connected);
    return createCodeModeService({ servers: connected.servers, options: parsed.options, run: (run) => runInNode(run.request, run.host) });
  }

  const WRITE_200 = `await Promise.all(Array.from({ length: 200 }, (_, i) =>
  memory.create_entities({ entities: [{ name: "e" + i, entityType: "t", observations: [] }] })));
return (await memory.read_graph({})).entities.length;`;

  it("keeps all 200 entities written at once with codeMode.callsInFlight { memory: 1 }; without it, most are lost", async () => {
    const capped = await serviceWith({ callsInFlight: { memory: 1 } });
    expect(await capped.execute({ code: WRITE_200 }, { clientName: "caps-test" })).toMatchObject({ ok: true, value: 200 });
    // The reason for the setting: each call reads the file, changes it and writes it back.
    const uncapped = await serviceWith({});
    const lost = await uncapped.execute({ code: WRITE_200 }, { clientName: "caps-test" });
    expect(lost.ok && typeof lost.value === "number" && lost.value < 200).toBe(true);
  }, 60_000);
});
