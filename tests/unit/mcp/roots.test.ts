import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import { formatRoots, parseRoots, ROOTS_KEY, RootsStore } from "@/lib/mcp/roots";
import type { ServerConfig } from "@/lib/mcp/types";
import { askingServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    storage: {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    },
  };
}

describe("roots", () => {
  it("parses one file:// URI a line with an optional name, and names every bad line", () => {
    expect(parseRoots("file:///home/me/project  My project\n\nfile:///tmp")).toEqual({
      ok: true,
      roots: [{ uri: "file:///home/me/project", name: "My project" }, { uri: "file:///tmp" }],
    });
    expect(parseRoots("https://example.com\nfile:///ok\nnot a uri")).toEqual({
      ok: false,
      errors: [
        'Line 1: "https://example.com" is not a file:// URI (roots are directories, such as file:///home/me/project).',
        'Line 3: "not" is not a file:// URI (roots are directories, such as file:///home/me/project).',
      ],
    });
    expect(formatRoots([{ uri: "file:///a", name: "A" }, { uri: "file:///b" }])).toBe("file:///a A\nfile:///b");
  });

  it("the store keeps roots per server across loads and drops what it cannot read", () => {
    const { map, storage } = memory();
    const store = new RootsStore(storage);
    const heard: string[] = [];
    store.subscribe((id) => heard.push(id));
    store.set("s1", [{ uri: "file:///work" }]);
    expect(new RootsStore(storage).get("s1")).toEqual([{ uri: "file:///work" }]);
    expect(heard).toEqual(["s1"]);
    map.set(ROOTS_KEY, JSON.stringify({ s1: [{ uri: "https://evil.example" }], s2: "nope" }));
    expect(new RootsStore(storage).get("s1")).toEqual([]);
  });

  it("a server lists the roots and hears when they change", async () => {
    const store = new RootsStore();
    store.set("asker", [{ uri: "file:///home/me/project", name: "Project" }]);
    const config: ServerConfig = { id: "asker", name: "asker", transport: "streamable-http", url: host.url, enabled: true };
    const connection = await connectToServer(config, {
      baseUrl: new URL(host.url).origin,
      proxyUrl: "/api/mcp/proxy",
      via: "direct",
      roots: (c) => store.get(c.id),
    });
    expect((await connection.callTool("list_roots", {})).structuredContent).toEqual({
      roots: [{ uri: "file:///home/me/project", name: "Project" }],
      changed: 0,
    });
    store.set("asker", [{ uri: "file:///srv" }]);
    await connection.notifyRootsChanged();
    await expect.poll(async () => (await connection.callTool("list_roots", {})).structuredContent).toEqual({ roots: [{ uri: "file:///srv" }], changed: 1 });
    await connection.close();
  });
});
