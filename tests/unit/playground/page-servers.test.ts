/**
 * The page's servers as a plain object in Node: a registry seeded with the demo servers, real
 * connections to the demo host on loopback, the view the panels read, and host functions over it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { ServerRegistry } from "@/lib/mcp/registry";
import { PageServers } from "@/lib/playground/page-servers";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import { FAST, until, valueOf } from "../timeline/helpers";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
beforeAll(async () => {
  demo = await startDemoHost();
});
afterAll(() => demo.close());

describe("PageServers", () => {
  it("connects the registered servers, offers their catalog, and runs a program's calls over the connections", async () => {
    const servers = new PageServers({ registry: new ServerRegistry(), connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    try {
      await servers.start();
      await until(() => servers.view.snapshot().connected.length === 4);
      const { catalog } = servers.view.snapshot();
      expect(catalog.servers.map((s) => s.name)).toEqual(["shipping", "news", "store", "lab"]);
      expect(catalog.declarations.text).toContain("declare namespace shipping");
      expect(servers.servers()).toBe(catalog.servers);

      const infos: string[] = [];
      const host = servers.hostFor((callId, info) => info.server && infos.push(`${callId}:${info.server}.${info.tool}`));
      const result = await runInNode({ code: "const r = await shipping.list_carriers({}); return Array.isArray(r.carriers)", limits: FAST }, host);
      expect(valueOf(result)).toBe(true);
      expect(infos[0]).toBe("1:shipping.list_carriers");

      // A change that leaves the connected servers as they were keeps the catalog; disabling one builds a new one.
      const before = servers.view.snapshot().catalog;
      const lab = servers.registry.snapshot().find((s) => s.name === "lab")!;
      servers.registry.update(lab.id, { headers: { "x-note": "same tools" } });
      await until(
        () => servers.view.snapshot().connected.length === 4 && servers.view.snapshot().servers.find((s) => s.id === lab.id)?.headers?.["x-note"] !== undefined,
      );
      servers.registry.setEnabled(lab.id, false);
      await until(() => servers.view.snapshot().connected.length === 3);
      expect(servers.view.snapshot().catalog).not.toBe(before);
      expect(servers.view.snapshot().catalog.servers.map((s) => s.name)).toEqual(["shipping", "news", "store"]);
    } finally {
      await servers.dispose();
    }
  });

  it("settled() waits for the servers still connecting, and no longer than its limit or an abort", async () => {
    const servers = new PageServers({ registry: new ServerRegistry(), connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    try {
      void servers.start();
      expect(Object.values(servers.manager.snapshot()).some((s) => s.state === "connecting")).toBe(true);
      await servers.settled(new AbortController().signal);
      expect(Object.values(servers.manager.snapshot()).map((s) => s.state)).toEqual(["connected", "connected", "connected", "connected"]);
      // Nothing connecting: at once.
      await servers.settled(new AbortController().signal);
    } finally {
      await servers.dispose();
    }
    const registry = new ServerRegistry({ seedDemoServers: false });
    const slow = new PageServers({
      registry,
      connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" },
      connector: () => new Promise(() => undefined),
    });
    try {
      registry.add({ name: "slow", transport: "streamable-http", url: "/api/demo-mcp/shipping" });
      await until(() => Object.values(slow.manager.snapshot()).some((s) => s.state === "connecting"));
      const started = Date.now();
      await slow.settled(new AbortController().signal, 100);
      expect(Date.now() - started).toBeLessThan(5_000);
      const aborter = new AbortController();
      const waiting = slow.settled(aborter.signal);
      aborter.abort();
      await waiting;
    } finally {
      await slow.dispose();
    }
  });

  it("a status change that does not touch the connected servers keeps the same catalog object", async () => {
    const registry = new ServerRegistry({ seedDemoServers: false });
    const servers = new PageServers({ registry, connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    try {
      registry.add({ name: "shipping", transport: "streamable-http", url: "/api/demo-mcp/shipping" });
      await until(() => servers.view.snapshot().connected.length === 1);
      const catalog = servers.view.snapshot().catalog;
      // A second server that never connects changes statuses, not the connected list.
      registry.add({ name: "nowhere", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" });
      await until(() => servers.view.snapshot().statuses[registry.snapshot()[1]!.id]?.state === "error");
      expect(servers.view.snapshot().catalog).toBe(catalog);
    } finally {
      await servers.dispose();
    }
  });
});
