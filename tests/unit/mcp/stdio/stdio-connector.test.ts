import { describe, expect, it, vi } from "vitest";
import { withStdioBridge } from "@/lib/mcp/stdio/browser/stdio-connector";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import { StdioBridgeClientError, type StdioBridgeConnection } from "@/lib/mcp/stdio/browser/stdio-client";
import type { McpConnection } from "@/lib/mcp/live-connection";
import type { ServerConfig } from "@/lib/mcp/types";

const TOKEN = "t".repeat(43);
const options = { baseUrl: "http://127.0.0.1:3000", proxyUrl: "/api/mcp/proxy" };
const stdio: ServerConfig = { id: "mem", name: "memory", transport: "stdio", command: "node", args: ["m.js"], env: { KEY: "s3cret" }, enabled: true };

function fakeConnection(): McpConnection & { closeSpy: ReturnType<typeof vi.fn> } {
  const closeSpy = vi.fn(() => Promise.resolve());
  return {
    closeSpy,
    serverInfo: { name: "fake", version: "1" },
    protocolVersion: "2025-06-18",
    capabilities: {},
    transport: "streamable-http",
    via: "direct",
    tasks: true,
    toolsTtlMs: () => 300_000,
    listTools: () => Promise.resolve([]),
    listPrompts: () => Promise.resolve([]),
    listResources: () => Promise.resolve([]),
    listResourceTemplates: () => Promise.resolve([]),
    readResource: () => Promise.resolve({ contents: [] }),
    subscribeResource: () => Promise.resolve(() => Promise.resolve()),
    getPrompt: () => Promise.resolve({ messages: [] }),
    callTool: () => Promise.resolve({ content: [] }),
    setLogLevel: () => Promise.resolve(),
    notifyRootsChanged: () => Promise.resolve(),
    onToolsListChanged: () => () => undefined,
    onLost: () => () => undefined,
    close: closeSpy,
  };
}

function fakeBridge(): StdioBridgeConnection & { closeSpy: ReturnType<typeof vi.fn> } {
  const closeSpy = vi.fn(() => Promise.resolve());
  return {
    closeSpy,
    url: new URL("http://127.0.0.1:3000/api/mcp/stdio/abc"),
    headers: { "x-cmp-local-token": "t" },
    session: "abc",
    pid: 42,
    era: "legacy",
    sharedWith: 1,
    stderr: () => Promise.resolve(""),
    close: closeSpy,
  };
}

describe("withStdioBridge", () => {
  it("passes non-stdio servers straight to the connector", async () => {
    const connection = fakeConnection();
    const connector = vi.fn(() => Promise.resolve(connection));
    const start = vi.fn();
    const http: ServerConfig = { id: "a", name: "a", transport: "streamable-http", url: "http://x/mcp", enabled: true };
    await expect(withStdioBridge(() => TOKEN, connector, start)(http, options)).resolves.toBe(connection);
    expect(start).not.toHaveBeenCalled();
  });

  it("starts the bridge, connects to its URL with its headers and no env, and kills it on close", async () => {
    const connection = fakeConnection();
    const bridge = fakeBridge();
    const connector = vi.fn((_config: ServerConfig, _options: unknown) => Promise.resolve(connection));
    const start = vi.fn(() => Promise.resolve(bridge));
    const wrapped = await withStdioBridge(() => TOKEN, connector, start)(stdio, options);
    expect(start).toHaveBeenCalledWith({ command: "node", args: ["m.js"], env: { KEY: "s3cret" } }, { baseUrl: options.baseUrl, token: TOKEN });
    const used = connector.mock.calls[0]?.[0];
    expect(used).toMatchObject({ transport: "streamable-http", url: bridge.url.href, headers: bridge.headers, env: {} });
    // The era the bridge found on the process's pipe: the page does not ask again.
    expect(connector.mock.calls[0]?.[1]).toMatchObject({ era: "legacy" });
    expect(wrapped.serverInfo.name).toBe("fake");
    // The process as the bridge reported it, and whatever else the connection offers, unlisted.
    expect(wrapped.localProcess).toEqual({ pid: 42, sharedWith: 1 });
    expect(wrapped.tasks).toBe(true);
    expect(wrapped.toolsTtlMs?.()).toBe(300_000);
    await wrapped.close();
    expect(connection.closeSpy).toHaveBeenCalledTimes(1);
    expect(bridge.closeSpy).toHaveBeenCalledTimes(1);
  });

  it("connects in the era the bridge found, and hands a forced era to the bridge so it asks nothing", async () => {
    const connector = vi.fn((_config: ServerConfig, _options: unknown) => Promise.resolve(fakeConnection()));
    const modern = vi.fn(() => Promise.resolve({ ...fakeBridge(), era: "modern" as const }));
    await withStdioBridge(() => TOKEN, connector, modern)(stdio, options);
    expect(connector.mock.calls[0]?.[1]).toMatchObject({ era: "modern" });

    const forced = vi.fn(() => Promise.resolve(fakeBridge()));
    await withStdioBridge(() => TOKEN, connector, forced)({ ...stdio, protocolEra: "modern" }, options);
    expect(forced).toHaveBeenCalledWith(expect.objectContaining({ era: "modern" }), expect.anything());
    expect(connector.mock.calls[1]?.[1]).toMatchObject({ era: "modern" });
  });

  it("turns bridge refusals into connection errors and closes the bridge when the handshake fails", async () => {
    const refused = vi.fn(() => Promise.reject(new StdioBridgeClientError("refused:stdio", "not on loopback", 403)));
    const error = await withStdioBridge(() => TOKEN, vi.fn(), refused)(stdio, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("forbidden");
    expect((error as ConnectionError).message).toContain("not on loopback");

    // A command that does not start is a start failure, not a protocol error.
    for (const code of ["start_failed:stdio", "exited:stdio"]) {
      const failed = vi.fn(() => Promise.reject(new StdioBridgeClientError(code, 'Command not found: "nope"', 502)));
      const startError = await withStdioBridge(() => TOKEN, vi.fn(), failed)(stdio, options).catch((e: unknown) => e);
      expect((startError as ConnectionError).kind).toBe("start-failed");
    }
    // The cap on local servers at once is "busy": the page tries again by itself.
    const full = vi.fn(() => Promise.reject(new StdioBridgeClientError("too_many:stdio", "At most 32 local stdio servers may run at once", 429)));
    const busy = await withStdioBridge(() => TOKEN, vi.fn(), full)(stdio, options).catch((e: unknown) => e);
    expect((busy as ConnectionError).kind).toBe("busy");

    const bridge = fakeBridge();
    const failing = vi.fn(() => Promise.reject(new ConnectionError("timeout", "no answer")));
    await expect(
      withStdioBridge(
        () => TOKEN,
        failing,
        () => Promise.resolve(bridge),
      )(stdio, options),
    ).rejects.toThrow("no answer");
    expect(bridge.closeSpy).toHaveBeenCalledTimes(1);
  });

  it("says how to get the token when the page has none, without calling the bridge", async () => {
    const error = await withStdioBridge(() => undefined)(stdio, { ...options, fetch: () => Promise.reject(new Error("no request expected")) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("forbidden");
    expect((error as ConnectionError).message).toContain("the link that `npm start` printed");
  });
});
