/**
 * A server card's resources and prompts as the page keeps them (lib/mcp/server-extras.ts),
 * against a real server: templates when opened, reads, a subscription that reads again on each
 * change and ends, prompts, errors as text, a new connection starting afresh, and the page's
 * store of a server that leaves the list closed and forgotten.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import type { McpConnection } from "@/lib/mcp/live-connection";
import { ServerExtrasStore } from "@/lib/mcp/server-extras";
import type { ServerConfig } from "@/lib/mcp/types";
import { ServerRegistry } from "@/lib/mcp/registry";
import { PageServers } from "@/lib/playground/page-servers";
import { until } from "../timeline/helpers";
import { askingServer, startMcpHttpServer, type StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

const config = (url: string): ServerConfig => ({ id: "asker", name: "asker", transport: "streamable-http", url, enabled: true });
const connect = () => connectToServer(config(host.url), { baseUrl: new URL(host.url).origin, proxyUrl: "/api/mcp/proxy", via: "direct" });

describe("ServerExtrasStore", () => {
  it("lists templates when opened, reads, follows a subscription until it ends, and gets a prompt", async () => {
    let connection: McpConnection | undefined = await connect();
    const extras = new ServerExtrasStore(() => connection);
    await extras.open();
    expect(extras.snapshot()).toMatchObject({ templates: [{ uriTemplate: "memo://day/{date}" }], canSubscribe: true, subscribed: [] });

    await extras.read("memo://day/2026-11-28");
    expect(extras.snapshot().shown).toMatchObject({ kind: "resource", uri: "memo://day/2026-11-28", result: { contents: [{ text: "memo for 2026-11-28" }] } });

    await extras.toggleSubscription("memo://note");
    expect(extras.snapshot().subscribed).toEqual(["memo://note"]);
    await connection.callTool("update_note", { text: "second draft" });
    await expect.poll(() => extras.snapshot().shown).toMatchObject({ kind: "resource", uri: "memo://note", updatedAt: expect.any(Number) as unknown });
    expect(extras.snapshot().shown).toMatchObject({ result: { contents: [{ text: "second draft" }] } });
    await extras.toggleSubscription("memo://note");
    expect(extras.snapshot().subscribed).toEqual([]);

    await extras.getPrompt("greet", { who: "Ada" });
    expect(extras.snapshot().shown).toMatchObject({ kind: "prompt", name: "greet", result: { messages: [{ content: { text: "Say hello to Ada." } }] } });
    await extras.getPrompt("nope", {});
    expect(extras.snapshot().shown).toMatchObject({ kind: "error", text: expect.stringMatching(/^The prompt nope failed: /) as unknown });
    await extras.read("memo://missing");
    expect(extras.snapshot().shown).toMatchObject({ kind: "error", text: expect.stringMatching(/^Reading memo:\/\/missing failed: /) as unknown });

    // The server went away: the section says so instead of calling a closed connection.
    await connection.close();
    connection = undefined;
    await extras.read("memo://note");
    expect(extras.snapshot().shown).toEqual({ kind: "error", text: "The server is not connected." });
  });

  it("a new connection starts afresh, and closing ends every subscription", async () => {
    let connection = await connect();
    const extras = new ServerExtrasStore(() => connection);
    await extras.open();
    await extras.toggleSubscription("memo://note");
    await extras.read("memo://note");
    const first = connection;
    connection = await connect();
    await extras.open();
    expect(extras.snapshot()).toMatchObject({ subscribed: [], templates: [{ uriTemplate: "memo://day/{date}" }] });
    expect(extras.snapshot().shown).toBeUndefined();
    await extras.toggleSubscription("memo://note");
    await extras.close();
    expect(extras.snapshot()).toEqual({ templates: [], canSubscribe: false, subscribed: [] });
    // No subscription is left to read again after a change.
    await connection.callTool("update_note", { text: "after close" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(extras.snapshot().shown).toBeUndefined();
    await first.close();
    await connection.close();
  });

  it("lives while its server is listed on the page: removing the server ends its subscriptions and forgets the store", async () => {
    const registry = new ServerRegistry({ seedDemoServers: false });
    const servers = new PageServers({ registry, connectOptions: { baseUrl: new URL(host.url).origin, proxyUrl: "/api/mcp/proxy", via: "direct" } });
    try {
      await servers.start();
      const added = registry.add({ name: "asker", transport: "streamable-http", url: host.url });
      if (!added.ok) throw new Error(JSON.stringify(added.issues));
      const { id } = added.server;
      await until(() => servers.view.snapshot().connected.length === 1);
      const extras = servers.extrasFor(id);
      expect(servers.extrasFor(id)).toBe(extras);
      await extras.open();
      await extras.toggleSubscription("memo://note");
      expect(extras.snapshot().subscribed).toEqual(["memo://note"]);

      registry.remove(id);
      await until(() => extras.snapshot().subscribed.length === 0);
      expect(extras.snapshot()).toEqual({ templates: [], canSubscribe: false, subscribed: [] });
      expect(servers.extrasFor(id)).not.toBe(extras);
    } finally {
      await servers.dispose();
    }
  });
});
