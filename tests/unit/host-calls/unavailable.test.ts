/** A server being tried again keeps its namespace; its calls fail at once, saying why and when (lib/host-calls/unavailable.ts). */
import { describe, expect, it } from "vitest";
import { buildHostFunctions } from "@/lib/host-calls/mcp-tools";
import { explainNotConnected, notConnectedNamespaces, unavailableServer } from "@/lib/host-calls/unavailable";
import type { ServerStatus } from "@/lib/mcp/server-status";

const tools = [{ name: "read_graph", inputSchema: { type: "object" as const } }];

describe("unavailableServer", () => {
  it("fails every call with the reason and the next try, through the ordinary host functions", async () => {
    const status: ServerStatus = {
      state: "error",
      error: { kind: "disconnected", message: "The stdio server exited with signal SIGKILL." },
      restart: { attempt: 2, of: 8, at: 5_000 },
      tools,
    };
    const server = unavailableServer("mem", status, () => 1_000);
    if (!server) throw new Error("expected a server");
    const { host } = buildHostFunctions([server]);
    const call = host.mem?.read_graph;
    if (!call) throw new Error("mem.read_graph is missing");
    await expect(call({}, new AbortController().signal, { callId: 1 })).rejects.toThrow(
      'Server "mem" is unavailable: its connection was lost (The stdio server exited with signal SIGKILL.). It is tried again in 4 s (try 2 of 8).',
    );
  });

  it("is nothing for a server that is connected, idle, or an error nobody tries again", () => {
    expect(unavailableServer("a", undefined)).toBeUndefined();
    expect(unavailableServer("a", { state: "idle" })).toBeUndefined();
    expect(unavailableServer("a", { state: "error", error: { kind: "refused", message: "no" } })).toBeUndefined();
  });
});

describe("servers that are not connected", () => {
  const config = (id: string, name: string, enabled = true) => ({ id, name, transport: "streamable-http" as const, url: "http://127.0.0.1:1/mcp", enabled });
  it("names each registered server programs cannot call, by its namespace, with why; connected ones and ones tried again are left out", () => {
    const statuses: Record<string, ServerStatus> = {
      b: { state: "connecting" },
      c: { state: "error", error: { kind: "busy", message: "At most 9 local stdio servers may run at once" } },
      d: { state: "error", error: { kind: "disconnected", message: "lost" }, restart: { attempt: 1, of: 8, at: 0 }, tools },
    };
    const found = notConnectedNamespaces(
      [config("a", "live"), config("b", "slow-one"), config("c", "busy"), config("d", "retrying"), config("e", "off", false)],
      statuses,
      new Set(["live"]),
    );
    expect([...found.keys()]).toEqual(["slow_one", "busy", "off"]);
    expect(found.get("slow_one")).toBe('Server "slow-one" is not connected: it is still connecting. Connect it in the Servers panel, then run again.');
    expect(found.get("busy")).toBe(
      'Server "busy" is not connected: it could not connect (At most 9 local stdio servers may run at once). Connect it in the Servers panel, then run again.',
    );
    expect(found.get("off")).toBe('Server "off" is not connected: it is switched off in the Servers panel. Connect it in the Servers panel, then run again.');
  });

  it("explains only a ReferenceError naming one of them", () => {
    const offline = new Map([["mem", 'Server "mem" is not connected: x.']]);
    expect(explainNotConnected("ReferenceError: 'mem' is not defined", offline)).toBe('ReferenceError: Server "mem" is not connected: x.');
    expect(explainNotConnected("ReferenceError: 'other' is not defined", offline)).toBe("ReferenceError: 'other' is not defined");
    expect(explainNotConnected("TypeError: not a function", offline)).toBe("TypeError: not a function");
    expect(explainNotConnected("ReferenceError: 'mem' is not defined", undefined)).toBe("ReferenceError: 'mem' is not defined");
  });
});
