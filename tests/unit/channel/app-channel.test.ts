/**
 * The app's channel with its real routes (lib/routes/node/channel-listener.ts): what a page can
 * do through it in local and in hosted mode is exactly what the routes allow over plain HTTP, and
 * a page's stdio servers end when its channel closes (docs/channel.md, "The channel").
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appChannel } from "@/lib/routes/node/channel-listener";
import { createChannelClient, type ChannelClient, type SocketLike } from "@/lib/channel/browser/channel-client";
import { DEFAULT_STDIO_LIMITS, getStdioSessions } from "@/lib/mcp/stdio/server/stdio-sessions";

const TOKEN = "channel-test-token-0123456789abcdef0123";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.unstubAllEnvs();
  getStdioSessions().configure(DEFAULT_STDIO_LIMITS);
  await getStdioSessions().closeAll();
});

async function startApp(): Promise<{ origin: string; client: ChannelClient }> {
  const channel = appChannel();
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", (req, socket, head) => {
    if (!channel.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createChannelClient({
    origin,
    openSocket: (url) => new WebSocket(url, { headers: { origin } } as unknown as string[]) as unknown as SocketLike,
    fallbackFetch: () => Promise.reject(new Error("the test expects the channel")),
  });
  cleanups.push(() => {
    channel.close();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  cleanups.push(() => client.close());
  return { origin, client };
}

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;
const startSleeper = (client: ChannelClient, origin: string) =>
  client.fetch(`${origin}/api/mcp/stdio`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-cmp-local-token": TOKEN },
    body: JSON.stringify({ command: process.execPath, args: ["-e", "process.stdin.resume(); setInterval(() => {}, 1000)"] }),
  });

describe("the app's channel and its routes", () => {
  it("hosted mode: no stdio bridge and no proxying to private addresses through it either; the demo servers answer", async () => {
    vi.stubEnv("CMP_LOCAL_TOKEN", TOKEN);
    vi.stubEnv("CMP_MODE", "hosted");
    const { origin, client } = await startApp();
    const stdio = await startSleeper(client, origin);
    expect(stdio.status).toBe(403);
    expect(await errorOf(stdio)).toMatchObject({ code: "refused:stdio" });
    expect(getStdioSessions().size).toBe(0);
    const proxied = await client.fetch(`${origin}/api/mcp/proxy`, { headers: { "x-mcp-target": "http://127.0.0.1:9/mcp" } });
    expect(proxied.status).toBe(403);
    expect(await errorOf(proxied)).toMatchObject({ code: "refused:proxy" });
    const demo = await client.fetch(`${origin}/api/demo-mcp/lab`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }),
    });
    expect(demo.status).toBe(200);
    expect(await demo.text()).toContain("hi");
  });

  it("local mode: the page's token starts a stdio server through the channel, a wrong one does not; the server ends after its page's channel closes (and the linger for a reload)", async () => {
    vi.stubEnv("CMP_LOCAL_TOKEN", TOKEN);
    getStdioSessions().configure({ orphanGraceMs: 200, lingerMs: 200 });
    const { origin, client } = await startApp();
    const wrong = await client.fetch(`${origin}/api/mcp/stdio`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-cmp-local-token": "guess" },
      body: JSON.stringify({ command: process.execPath, args: ["-e", "1"] }),
    });
    expect(wrong.status).toBe(403);
    const started = await startSleeper(client, origin);
    expect(started.status).toBe(201);
    const { session, pid } = (await started.json()) as { session: string; pid: number };
    expect(getStdioSessions().get(session)).toBeDefined();
    client.close();
    await expect.poll(() => getStdioSessions().get(session), { timeout: 5_000 }).toBeUndefined();
    await expect
      .poll(() => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      })
      .toBe(false);
  });
});
