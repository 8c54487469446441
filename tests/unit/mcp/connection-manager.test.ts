import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { McpConnection } from "@/lib/mcp/connection";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import { ConnectionManager } from "@/lib/mcp/connection-manager";
import type { Connector } from "@/lib/mcp/connection-manager";
import type { ServerStatus } from "@/lib/mcp/server-status";
import { ServerRegistry } from "@/lib/mcp/registry";
import type { ServerConfig } from "@/lib/mcp/types";
import { startOutageFront } from "../../fixtures/mcp/outage";
import { adderServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";

type Fake = McpConnection & { closed: boolean; toolsChanged(): void; lose(): void; tools: Tool[] };

function fakeConnection(name: string): Fake {
  const toolListeners = new Set<() => void>();
  const lostListeners = new Set<(e: ConnectionError) => void>();
  const fake: Fake = {
    serverInfo: { name, version: "1" },
    protocolVersion: "2025-06-18",
    capabilities: { tools: { listChanged: true } },
    transport: "streamable-http",
    via: "direct",
    closed: false,
    tools: [{ name: "t1", inputSchema: { type: "object" } }],
    listTools: () => Promise.resolve([...fake.tools]),
    listPrompts: () => Promise.reject(new Error("prompts broken")),
    listResources: () => Promise.resolve([]),
    listResourceTemplates: () => Promise.resolve([]),
    readResource: () => Promise.resolve({ contents: [] }),
    subscribeResource: () => Promise.resolve(() => Promise.resolve()),
    getPrompt: () => Promise.resolve({ messages: [] }),
    callTool: () => Promise.resolve({ content: [] }),
    setLogLevel: () => Promise.resolve(),
    notifyRootsChanged: () => Promise.resolve(),
    onToolsListChanged: (l) => (toolListeners.add(l), () => toolListeners.delete(l)),
    onLost: (l) => (lostListeners.add(l), () => lostListeners.delete(l)),
    close: () => {
      fake.closed = true;
      return Promise.resolve();
    },
    toolsChanged: () => toolListeners.forEach((l) => l()),
    lose: () => lostListeners.forEach((l) => l(new ConnectionError("disconnected", "dropped"))),
  };
  return fake;
}

/** A connector that hands out fakes and can be told to fail or to wait. */
function fakeConnector() {
  const made: Array<{ config: ServerConfig; connection: Fake; fresh: boolean }> = [];
  let failWith: Error | undefined;
  let gate: Promise<void> | undefined;
  const connector: Connector = async (config, options) => {
    if (gate) await gate;
    if (failWith) throw failWith;
    const connection = fakeConnection(config.name);
    made.push({ config, connection, fresh: options.freshProcess === true });
    return connection;
  };
  return {
    connector,
    made,
    fail: (error: Error | undefined) => (failWith = error),
    hold: () => {
      let release = () => {};
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

const managers: ConnectionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});

function setup(autoConnect = true, restart?: ConstructorParameters<typeof ConnectionManager>[1]["restart"]) {
  const registry = new ServerRegistry({ seedDemoServers: false });
  registry.add({ name: "one", transport: "streamable-http", url: "https://one.example/mcp" });
  const fake = fakeConnector();
  const manager = new ConnectionManager(registry, {
    connectOptions: { baseUrl: "https://play.example", proxyUrl: "/api/mcp/proxy" },
    connector: fake.connector,
    autoConnect,
    ...(restart !== undefined ? { restart } : {}),
    now: () => 1234,
  });
  managers.push(manager);
  const states: string[] = [];
  manager.subscribe(() => states.push(manager.status("one").state));
  return { registry, fake, manager, states };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("ConnectionManager with a fake connector", () => {
  it("goes idle → connecting → connected, with tools, and survives a broken prompts list", async () => {
    const { manager, states } = setup();
    expect(manager.status("one")).toEqual({ state: "idle" });
    await manager.connectAll();
    expect(states).toEqual(["connecting", "connected"]);
    expect(manager.status("one")).toMatchObject({ state: "connected", serverInfo: { name: "one" }, tools: [{ name: "t1" }], prompts: [], connectedAt: 1234 });
    expect(Object.isFrozen(manager.snapshot())).toBe(true);
    expect(manager.connection("one")).toBeDefined();
  });

  it("shows a failed connect as an error and connects on the next try", async () => {
    const { manager, fake } = setup();
    fake.fail(new ConnectionError("unauthorized", "wants credentials"));
    expect(await manager.connect("one")).toEqual({ state: "error", error: { kind: "unauthorized", message: "wants credentials" } });
    fake.fail(undefined);
    expect((await manager.connect("one")).state).toBe("connected");
  });

  it("the person's Reconnect asks for a process of the server's own once; other connects share", async () => {
    const { registry, manager, fake } = setup(false);
    const id = registry.snapshot()[0]?.id ?? "";
    await manager.connect(id);
    await manager.reconnect(id, { freshProcess: true });
    await manager.reconnect(id);
    expect(fake.made.map((m) => m.fresh)).toEqual([false, true, false]);
  });

  it("reconnectLost connects again the servers that lost their connection or could not get through, and leaves the others", async () => {
    const { registry, manager, fake } = setup(false);
    registry.add({ name: "auth", transport: "streamable-http", url: "https://auth.example/mcp" });
    registry.add({ name: "net", transport: "streamable-http", url: "https://net.example/mcp" });
    const idOf = (name: string) => registry.snapshot().find((s) => s.name === name)?.id ?? "";
    fake.fail(new ConnectionError("disconnected", "dropped"));
    await manager.connect(idOf("one"));
    fake.fail(new ConnectionError("unauthorized", "wants credentials"));
    await manager.connect(idOf("auth"));
    fake.fail(new ConnectionError("cors-or-network", "no network"));
    await manager.connect(idOf("net"));
    fake.fail(undefined);
    await manager.reconnectLost();
    expect(manager.status(idOf("one")).state).toBe("connected");
    expect(manager.status(idOf("net")).state).toBe("connected");
    expect(manager.status(idOf("auth"))).toMatchObject({ state: "error", error: { kind: "unauthorized" } });
  });

  it("closes removed and disabled servers, and connects added and re-enabled ones", async () => {
    const { registry, manager, fake } = setup();
    await manager.connectAll();
    registry.setEnabled("one", false);
    expect(fake.made[0]?.connection.closed).toBe(true);
    expect(manager.status("one").state).toBe("idle");
    registry.setEnabled("one", true);
    await settle();
    expect(manager.status("one").state).toBe("connected");
    registry.add({ name: "two", transport: "sse", url: "https://two.example/sse" });
    await settle();
    expect(manager.status("two").state).toBe("connected");
    registry.remove("two");
    expect(fake.made[2]?.connection.closed).toBe(true);
    expect(manager.snapshot()).not.toHaveProperty("two");
  });

  it("reconnects when the URL or headers change, not on a rename", async () => {
    const { registry, manager, fake } = setup();
    await manager.connectAll();
    registry.update("one", { name: "One renamed" });
    await settle();
    expect(fake.made).toHaveLength(1);
    registry.update("one", { headers: { authorization: "Bearer t" } });
    await settle();
    expect(fake.made).toHaveLength(2);
    expect(fake.made[0]?.connection.closed).toBe(true);
    expect(fake.made[1]?.config.headers).toEqual({ authorization: "Bearer t" });
    registry.update("one", { url: "https://one.example/v2/mcp" });
    await settle();
    expect(fake.made.map((m) => m.config.url)).toEqual(["https://one.example/mcp", "https://one.example/mcp", "https://one.example/v2/mcp"]);
    expect(manager.status("one").state).toBe("connected");
  });

  it("drops a connect that finishes after a disconnect", async () => {
    const { manager, fake } = setup();
    const release = fake.hold();
    const pending = manager.connect("one");
    expect(manager.status("one").state).toBe("connecting");
    await manager.disconnect("one");
    release();
    await pending;
    expect(manager.status("one").state).toBe("idle");
    expect(fake.made[0]?.connection.closed).toBe(true);
  });

  it("records what a tools/list_changed changed", async () => {
    const { manager, fake } = setup();
    await manager.connectAll();
    const connection = fake.made[0]!.connection;
    connection.tools = [{ name: "t2", inputSchema: { type: "object" } }];
    connection.toolsChanged();
    connection.toolsChanged();
    await manager.refreshTools("one");
    expect(manager.status("one")).toMatchObject({ state: "connected", tools: [{ name: "t2" }], lastChange: { added: ["t2"], removed: ["t1"], changed: [] } });
  });

  it("turns a lost connection into an error status", async () => {
    const { manager, fake } = setup();
    await manager.connectAll();
    fake.made[0]!.connection.lose();
    // The tools it had stay known, unavailable, while it is tried again.
    expect(manager.status("one")).toEqual({
      state: "error",
      error: { kind: "disconnected", message: "dropped" },
      restart: { attempt: 1, of: 8, at: 1234 + 1_000 },
      tools: [{ name: "t1", inputSchema: { type: "object" } }],
    });
    expect(fake.made[0]?.connection.closed).toBe(true);
    expect(manager.connection("one")).toBeUndefined();
  });

  it("a first connect refused by a cap (busy: the bridge's local servers at once) is tried again by itself, and connects once a slot frees", async () => {
    vi.useFakeTimers();
    try {
      const { manager, fake } = setup(false, { initialMs: 100, maxMs: 250, attempts: 8, stableMs: 10_000 });
      fake.fail(new ConnectionError("busy", "At most 32 local stdio servers may run at once; disconnect one first"));
      await manager.connectAll();
      expect(manager.status("one")).toMatchObject({ state: "error", error: { kind: "busy" }, restart: { attempt: 1, of: 8 } });
      await vi.advanceTimersByTimeAsync(100);
      expect(manager.status("one")).toMatchObject({ state: "error", error: { kind: "busy" }, restart: { attempt: 2 } });
      fake.fail(undefined);
      await vi.advanceTimersByTimeAsync(200);
      expect(manager.status("one").state).toBe("connected");
    } finally {
      vi.useRealTimers();
    }
  });

  it("connects again by itself after a drop, with a doubling wait; gives up after the tries; a person's reconnect starts over", async () => {
    vi.useFakeTimers();
    try {
      const { manager, fake } = setup(true, { initialMs: 100, maxMs: 250, attempts: 3, stableMs: 10_000 });
      await manager.connectAll();
      fake.made[0]!.connection.lose();
      expect(manager.status("one")).toMatchObject({ state: "error", restart: { attempt: 1, of: 3 } });
      await vi.advanceTimersByTimeAsync(100);
      expect(manager.status("one").state).toBe("connected");
      expect(fake.made).toHaveLength(2);
      // A process that dies at once, then cannot start: 200 ms, then 250 ms (the cap), then it gives up.
      fake.made[1]!.connection.lose();
      fake.fail(new ConnectionError("start-failed", "the command exited at start"));
      expect(manager.status("one")).toMatchObject({ state: "error", restart: { attempt: 2, at: 1234 + 200 } });
      await vi.advanceTimersByTimeAsync(200);
      expect(manager.status("one")).toMatchObject({
        state: "error",
        error: { kind: "start-failed", message: "dropped Trying again: the command exited at start" },
        restart: { attempt: 3, at: 1234 + 250 },
      });
      await vi.advanceTimersByTimeAsync(250);
      const given = manager.status("one");
      expect(given).toMatchObject({ state: "error", error: { kind: "start-failed" } });
      expect(given.state === "error" && given.restart).toBeUndefined();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(manager.status("one").state).toBe("error");
      fake.fail(undefined);
      expect((await manager.reconnect("one")).state).toBe("connected");
      fake.made[2]!.connection.lose();
      expect(manager.status("one")).toMatchObject({ restart: { attempt: 1 } });
      // Disconnecting while a try is waiting cancels it.
      await manager.disconnect("one");
      await vi.advanceTimersByTimeAsync(1_000);
      expect(manager.status("one").state).toBe("idle");
      expect(fake.made).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not connect by itself without autoConnect", async () => {
    const { registry, manager } = setup(false);
    registry.add({ name: "two", transport: "streamable-http", url: "https://two.example/mcp" });
    await settle();
    expect(manager.status("two").state).toBe("idle");
  });
});

describe("ConnectionManager with real servers", () => {
  it("sees tools added on a live server (tools/list_changed) as lastChange", async () => {
    const host = await startMcpHttpServer(() => adderServer("growing"), { stateful: true });
    const registry = new ServerRegistry({ seedDemoServers: false });
    registry.add({ name: "growing", transport: "streamable-http", url: `${host.url}/mcp` });
    const manager = new ConnectionManager(registry, { connectOptions: { baseUrl: "https://play.example", proxyUrl: "/api/mcp/proxy", via: "direct" } });
    managers.push(manager);
    try {
      await manager.connectAll();
      expect(manager.status("growing")).toMatchObject({ state: "connected", tools: [{ name: "add" }] });
      const changed = new Promise<ServerStatus>((resolve) => {
        const off = manager.subscribe(() => {
          const status = manager.status("growing");
          if (status.state === "connected" && status.lastChange) {
            off();
            resolve(status);
          }
        });
      });
      host.servers[0]?.registerTool("multiply", { description: "Multiplies.", inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: "text", text: String(a * b) }],
      }));
      const status = await changed;
      expect(status).toMatchObject({ lastChange: { added: ["multiply"], removed: [], changed: [] } });
      expect(status.state === "connected" && status.tools.map((t) => t.name)).toEqual(["add", "multiply"]);
    } finally {
      await manager.dispose();
      await host.close();
    }
  });

  it("a server that goes down mid-call: the call fails clearly, the status is error, reconnect works after restart", async () => {
    const host = await startMcpHttpServer(() => adderServer("flaky"), { stateful: true });
    const front = await startOutageFront(host.url);
    const registry = new ServerRegistry({ seedDemoServers: false });
    registry.add({ name: "flaky", transport: "streamable-http", url: `${front.url}/mcp` });
    const manager = new ConnectionManager(registry, {
      connectOptions: { baseUrl: "https://play.example", proxyUrl: "/api/mcp/proxy", via: "direct", timeoutMs: 3_000 },
    });
    managers.push(manager);
    try {
      await manager.connectAll();
      const connection = manager.connection("flaky");
      expect((await connection?.callTool("add", { a: 1, b: 2 }))?.structuredContent).toEqual({ sum: 3 });
      host.servers[0]?.registerTool("hang", { inputSchema: {} }, () => new Promise(() => undefined));
      const pending = connection?.callTool("hang", {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      await front.cut();
      await host.restart();
      await expect(pending).rejects.toMatchObject({ kind: "disconnected", message: expect.stringMatching(/dropped/) as unknown });
      expect(manager.status("flaky")).toMatchObject({ state: "error", error: { kind: "disconnected" } });
      expect((await manager.reconnect("flaky")).state).toBe("error");
      await front.restore();
      const status = await manager.reconnect("flaky");
      expect(status).toMatchObject({ state: "connected", tools: [{ name: "add" }] });
      expect((await manager.connection("flaky")?.callTool("add", { a: 2, b: 2 }))?.structuredContent).toEqual({ sum: 4 });
    } finally {
      await manager.dispose();
      await front.close();
      await host.close();
    }
  });
});
