/** A server being tried again keeps its namespace; its calls fail at once, saying why and when (lib/mcp/unavailable.ts). */
import { describe, expect, it } from "vitest";
import { buildHostFunctions } from "@/lib/mcp/host-functions";
import { unavailableServer } from "@/lib/mcp/unavailable";
import type { ServerStatus } from "@/lib/mcp/connection-manager";

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
