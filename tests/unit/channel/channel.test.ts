/**
 * The page's channel, both ends over a real socket: the app's end (createChannelServer on a
 * loopback http.Server) and the page's end (createChannelClient over Node's WebSocket, the same
 * WHATWG API the browser has). Then as an attacker: raw upgrades and frames.
 */
import { clientFrame, neverReading, rawExchange, rawUpgrade, upgradeHead, writeUntilClosed } from "../../fixtures/raw-upgrade";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createChannelClient, type ChannelClient, type SocketLike } from "@/lib/channel/browser/channel-client";
import { CHANNEL_PATH, encodeData } from "@/lib/channel/channel-protocol";
import { createChannelServer, type ChannelDispatch, type ChannelServer, type ChannelServerLimits } from "@/lib/channel/node/channel-server";
import { checkUpgrade } from "@/lib/http/server/request-guard";

const HOSTS = new Set(["127.0.0.1", "localhost"]);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Seen {
  requests: Request[];
  aborted: string[];
}

/** Test routes: echo what arrived, a stream of `n` chunks, a stream that never ends, a flood. */
function testDispatch(seen: Seen): ChannelDispatch {
  return (request) => {
    seen.requests.push(request);
    const url = new URL(request.url);
    request.signal.addEventListener("abort", () => seen.aborted.push(url.pathname));
    if (url.pathname === "/api/mcp/proxy") {
      return request.text().then(
        (body) =>
          new Response(JSON.stringify({ method: request.method, body, headers: Object.fromEntries(request.headers) }), {
            status: 201,
            headers: { "content-type": "application/json", "x-test": "yes" },
          }),
      );
    }
    if (url.pathname === "/api/mcp/stdio/stream") {
      const chunks = Number(url.searchParams.get("n") ?? "3");
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === chunks) return controller.close();
          controller.enqueue(new TextEncoder().encode(`data: ${sent++}\n\n`));
        },
      });
      return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    }
    if (url.pathname === "/api/mcp/stdio/flood") {
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            floodPulled += 64 * 1024;
            controller.enqueue(new Uint8Array(64 * 1024).fill(120));
          },
        },
        { highWaterMark: 0 },
      );
      return Promise.resolve(new Response(body));
    }
    if (url.pathname === "/api/mcp/stdio/hang") return new Promise<Response>(() => undefined);
    if (url.pathname === "/api/mcp/stdio/empty") return Promise.resolve(new Response(null, { status: 204 }));
    return undefined;
  };
}
let floodPulled = 0;

async function startApp(
  seen: Seen,
  limits: Partial<ChannelServerLimits> = {},
  port = 0,
  onChannelClosed?: (channelId: string, pageGone: boolean) => void,
): Promise<{ server: http.Server; channel: ChannelServer; origin: string }> {
  const channel = createChannelServer({
    dispatch: testDispatch(seen),
    checkUpgrade: (headers) => checkUpgrade(headers, HOSTS),
    clientKey: (headers) => headers.get("x-forwarded-for") ?? "unknown",
    limits,
    ...(onChannelClosed ? { onChannelClosed } : {}),
  });
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", (req, socket, head) => {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    if (!channel.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => stopApp(server, channel));
  return { server, channel, origin };
}

function stopApp(server: http.Server, channel: ChannelServer): Promise<void> {
  channel.close();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The page's end, with Node's WebSocket sending the Origin a browser would. */
function pageClient(origin: string, extra: Partial<Parameters<typeof createChannelClient>[0]> = {}): ChannelClient {
  const client = createChannelClient({
    origin,
    openSocket: (url) => new WebSocket(url, { headers: { origin } } as unknown as string[]) as unknown as SocketLike,
    fallbackFetch: () => Promise.reject(new Error("the test expects the channel, not plain HTTP")),
    maxBackoffMs: 200,
    ...extra,
  });
  cleanups.push(() => client.close());
  return client;
}

const until = async (check: () => boolean, what: string, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("the channel, page to app", () => {
  it("carries a request and its answer: method, body, status, headers; Host, Origin and X-Forwarded-For are the upgrade's, not the page's", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin } = await startApp(seen);
    const client = pageClient(origin);
    const response = await client.fetch(`${origin}/api/mcp/proxy`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        host: "evil.example",
        origin: "https://evil.example",
        "x-forwarded-for": "203.0.113.9",
        "x-mcp-target": "t",
      },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-test")).toBe("yes");
    const echoed = (await response.json()) as { method: string; body: string; headers: Record<string, string> };
    expect(echoed.method).toBe("POST");
    expect(echoed.body).toBe('{"jsonrpc":"2.0"}');
    expect(echoed.headers.host).toBe(new URL(origin).host);
    expect(echoed.headers.origin).toBe(origin);
    expect(echoed.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(echoed.headers["x-mcp-target"]).toBe("t");
    expect(client.snapshot()).toMatchObject({ state: "open", streams: 0 });
  });

  it("streams a body chunk by chunk; 500 requests at once share the one socket; a 204 has no body", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen);
    const client = pageClient(origin);
    const stream = await client.fetch(`${origin}/api/mcp/stdio/stream?n=5`);
    expect(await stream.text()).toBe([0, 1, 2, 3, 4].map((n) => `data: ${n}\n\n`).join(""));
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        client.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: String(i) }).then((r) => r.json() as Promise<{ body: string }>),
      ),
    );
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 500 }, (_, i) => String(i)));
    expect(channel.openChannels).toBe(1);
    expect((await client.fetch(`${origin}/api/mcp/stdio/empty`)).status).toBe(204);
  });

  it("backpressure: a stream nobody reads stops at the window, and other requests still pass it", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const window = 256 * 1024;
    const { origin } = await startApp(seen, { window });
    const client = pageClient(origin);
    floodPulled = 0;
    const flood = await client.fetch(`${origin}/api/mcp/stdio/flood`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The app read at most the window (and one chunk it holds) from the flooding handler.
    expect(floodPulled).toBeLessThanOrEqual(window + 2 * 64 * 1024);
    const other = await client.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: "still here" });
    expect(((await other.json()) as { body: string }).body).toBe("still here");
    // Reading the flood lets it go on: credit flows back as the page consumes.
    const reader = flood.body!.getReader();
    let read = 0;
    while (read < 4 * window) read += (await reader.read()).value?.byteLength ?? 0;
    expect(floodPulled).toBeGreaterThan(3 * window);
    await reader.cancel();
    await until(() => seen.aborted.includes("/api/mcp/stdio/flood"), "the flood's request to be aborted");
  });

  it("an aborted fetch ends its request on the app at once", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin } = await startApp(seen);
    const client = pageClient(origin);
    const aborter = new AbortController();
    const hanging = client.fetch(`${origin}/api/mcp/stdio/hang`, { signal: aborter.signal });
    await until(() => seen.requests.length === 1, "the request to arrive");
    aborter.abort();
    await expect(hanging).rejects.toMatchObject({ name: "AbortError" });
    await until(() => seen.aborted.includes("/api/mcp/stdio/hang"), "the app to see the abort");
    expect(client.snapshot().streams).toBe(0);
  });

  it("the app stopped mid-request: the request fails at once with a clear error, the page says it is reconnecting, and works again when the app is back", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const first = await startApp(seen);
    const port = Number(new URL(first.origin).port);
    const client = pageClient(first.origin);
    const states: string[] = [];
    client.subscribe(() => states.push(client.snapshot().state));
    const hanging = client.fetch(`${first.origin}/api/mcp/stdio/hang`);
    await until(() => seen.requests.length === 1, "the request to arrive");
    const failed = expect(hanging).rejects.toThrow(/connection to the app was lost/);
    await stopApp(first.server, first.channel);
    await failed;
    await until(() => client.snapshot().state === "reconnecting", "reconnecting");
    expect(client.snapshot().message).toMatch(/Lost the connection to the app/);
    // Requests made meanwhile wait for the channel rather than fail.
    const waiting = client.fetch(`${first.origin}/api/mcp/proxy`, { method: "POST", body: "after" });
    await startApp(seen, {}, port);
    expect(((await (await waiting).json()) as { body: string }).body).toBe("after");
    expect(states).toContain("reconnecting");
    expect(client.snapshot().state).toBe("open");
  });

  it("paths outside the app's API, other origins, and a server without a channel use plain HTTP", async () => {
    const plain: string[] = [];
    const fallbackFetch = (input: string | URL | Request) => {
      plain.push(input instanceof Request ? input.url : String(input));
      return Promise.resolve(new Response("plain"));
    };
    // A server that answers upgrades with 404, as `next start` alone does.
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    server.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createChannelClient({ origin, fallbackFetch });
    cleanups.push(() => client.close());
    expect(await (await client.fetch(`${origin}/icon.svg`)).text()).toBe("plain");
    expect(await (await client.fetch("https://mcp.example.com/api/mcp/proxy")).text()).toBe("plain");
    expect(await (await client.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: "x" })).text()).toBe("plain");
    expect(client.snapshot().state).toBe("unavailable");
    expect(plain).toHaveLength(3);
    // Switched off (`?channel=off`): plain HTTP from the start, no socket at all.
    let sockets = 0;
    const off = createChannelClient({
      origin,
      fallbackFetch,
      disabled: true,
      openSocket: () => (sockets++, new WebSocket("ws://127.0.0.1:9") as unknown as SocketLike),
    });
    cleanups.push(() => off.close());
    expect(await (await off.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: "x" })).text()).toBe("plain");
    off.reconnectNow();
    expect(sockets).toBe(0);
    expect(off.snapshot().state).toBe("unavailable");
    expect(off.snapshot().message).toContain("switched off");
  });
});

/** An open raw channel (Node's WebSocket with whatever Origin), for sending frames by hand. */
async function rawSocket(origin: string): Promise<{ ws: WebSocket; closed: Promise<number>; frames: unknown[] }> {
  const ws = new WebSocket(`${origin.replace("http", "ws")}${CHANNEL_PATH}`, { headers: { origin } } as unknown as string[]);
  ws.binaryType = "arraybuffer";
  const frames: unknown[] = [];
  ws.onmessage = (event) => frames.push(typeof event.data === "string" ? JSON.parse(event.data) : event.data);
  const closed = new Promise<number>((resolve) => (ws.onclose = (event) => resolve(event.code)));
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  cleanups.push(() => ws.close());
  return { ws, closed, frames };
}

describe("the channel's end, as the stdio bridge hears it", () => {
  it("says whether the page is gone (1000, 1001 going away) or the connection broke (no close frame, 4000)", async () => {
    const closed: boolean[] = [];
    const { origin } = await startApp({ requests: [], aborted: [] }, {}, 0, (_id, pageGone) => closed.push(pageGone));
    const { ws } = await rawSocket(origin);
    ws.close(1000);
    await until(() => closed.length === 1, "the close of 1000");
    // 1001 is the browser's own, as a page unloads; a script cannot send it, so a raw frame does.
    const leaving = await neverReading(origin);
    leaving.write(clientFrame(0x8, Buffer.from([0x03, 0xe9])));
    // The browser then drops the connection; the app heard the code first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaving.destroy();
    await until(() => closed.length === 2, "the close of 1001");
    const reconnecting = await rawSocket(origin);
    reconnecting.ws.close(4000);
    await until(() => closed.length === 3, "the close of 4000");
    // A socket that dies without a close frame, as a dropped network leaves it.
    (await neverReading(origin)).destroy();
    await until(() => closed.length === 4, "the broken socket's close");
    expect(closed).toEqual([true, true, false, false]);
  });
});

describe("the channel, as an attacker meets it", () => {
  it("refuses a cross-origin upgrade, a missing Origin, a forged Host and a cross-site fetch, and counts each", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen);
    const host = new URL(origin).host;
    const crossSite = await rawUpgrade(origin, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toContain("refused:channel");
    expect((await rawUpgrade(origin, {})).status).toBe(403);
    expect((await rawUpgrade(origin, { host: "evil.example", origin: "http://evil.example" })).status).toBe(403);
    expect((await rawUpgrade(origin, { origin, "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await rawUpgrade(origin, { origin: `http://${host}` })).status).toBe(101);
    expect(channel.stats.refusedUpgrades).toMatchObject({ origin: 3, host: 1 });
    expect(seen.requests).toHaveLength(0);
  });

  it("caps channels per client", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxChannelsPerClient: 2 });
    await rawSocket(origin);
    await rawSocket(origin);
    expect((await rawUpgrade(origin, { origin })).status).toBe(429);
    expect(channel.stats.refusedUpgrades.too_many).toBe(1);
  });

  it("closes the channel on a malformed frame, a binary frame from the page, a reused stream id and an oversized frame; the app keeps serving", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxFrameBytes: 64 * 1024 });
    const notJson = await rawSocket(origin);
    notJson.ws.send("{not json");
    expect(await notJson.closed).toBe(1008);
    const unknownType = await rawSocket(origin);
    unknownType.ws.send(JSON.stringify({ t: "exec", id: 1 }));
    expect(await unknownType.closed).toBe(1008);
    const binary = await rawSocket(origin);
    binary.ws.send(new Uint8Array(encodeData(1, new Uint8Array([1, 2, 3]))));
    expect(await binary.closed).toBe(1008);
    const reused = await rawSocket(origin);
    const open = { t: "open", id: 7, method: "GET", path: "/api/mcp/stdio/hang", headers: [] };
    reused.ws.send(JSON.stringify(open));
    reused.ws.send(JSON.stringify(open));
    expect(await reused.closed).toBe(1008);
    const huge = await rawSocket(origin);
    huge.ws.send(JSON.stringify({ t: "open", id: 1, method: "POST", path: "/api/mcp/proxy", headers: [], body: "x".repeat(128 * 1024) }));
    expect(await huge.closed).toBe(1009);
    expect(channel.stats.badFrames).toBe(4);
    // The hanging request of the closed channel was ended with it.
    await until(() => seen.aborted.includes("/api/mcp/stdio/hang"), "the closed channel's request to end");
    const client = pageClient(origin);
    expect((await client.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: "ok" })).status).toBe(201);
  });

  it("refuses a flood of streams past the cap with a fail frame each, counted, and serves the rest", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxStreams: 10 });
    const raw = await rawSocket(origin);
    for (let id = 1; id <= 25; id++) raw.ws.send(JSON.stringify({ t: "open", id, method: "GET", path: "/api/mcp/stdio/hang", headers: [] }));
    await until(() => raw.frames.filter((f) => (f as { t: string }).t === "fail").length === 15, "15 refusals");
    expect(raw.frames.find((f) => (f as { t: string }).t === "fail")).toMatchObject({ code: "too_many_streams" });
    expect(channel.stats.refusedStreams).toBe(15);
    expect(seen.requests).toHaveLength(10);
    // A path nothing serves is refused too; a GET with a body is refused.
    raw.ws.send(JSON.stringify({ t: "cancel", id: 1 }));
    raw.ws.send(JSON.stringify({ t: "open", id: 100, method: "GET", path: "/api/share", headers: [] }));
    raw.ws.send(JSON.stringify({ t: "cancel", id: 2 }));
    raw.ws.send(JSON.stringify({ t: "open", id: 101, method: "GET", path: "/api/mcp/proxy", headers: [], body: "x" }));
    await until(() => raw.frames.some((f) => (f as { id?: number }).id === 101), "the GET with a body to be refused");
    expect(raw.frames).toContainEqual(expect.objectContaining({ t: "fail", id: 100, code: "not_routable" }));
    expect(raw.frames).toContainEqual(expect.objectContaining({ t: "fail", id: 101, code: "bad_request" }));
  });
});

describe("the channel's caps give back every slot", () => {
  it("each refused or broken upgrade leaves the per-client and global counts where they were", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxChannelsPerClient: 2 });
    const slotsNow = () => ({ total: channel.slots.total, mine: channel.slots.perClient.get("127.0.0.1") ?? 0 });
    const settle = () => until(() => channel.slots.total === channel.openChannels, "the slots to match the open channels");
    const paths: [string, string, RegExp][] = [
      ["a version ws does not speak", upgradeHead(origin, { "sec-websocket-version": "7" }), /^HTTP\/1\.1 400/],
      ["a malformed key", upgradeHead(origin, { "sec-websocket-key": "short" }), /^HTTP\/1\.1 400/],
      ["no key", upgradeHead(origin, { "sec-websocket-key": undefined }), /^HTTP\/1\.1 400/],
      ["no Upgrade header", upgradeHead(origin, { upgrade: "h2c" }), /^HTTP\/1\.1 400/],
      ["a POST", upgradeHead(origin, {}).replace(/^GET/, "POST"), /^HTTP\/1\.1 (400|405)/],
      ["a foreign Origin", upgradeHead(origin, { origin: "https://evil.example" }), /^HTTP\/1\.1 403/],
      ["a forged Host", upgradeHead(origin, { host: "evil.example", origin: "http://evil.example" }), /^HTTP\/1\.1 403/],
    ];
    for (const [what, head, expected] of paths) {
      const answer = await rawExchange(origin, head);
      expect(answer, what).toMatch(expected);
      await settle();
      expect(slotsNow(), what).toEqual({ total: 0, mine: 0 });
    }
    // A client that hangs up right after asking: its slot comes back whether or not ws got to answer.
    for (let i = 0; i < 20; i++) await rawExchange(origin, upgradeHead(origin, {}), { destroyAfterWrite: true });
    await until(() => channel.slots.total === 0 && channel.openChannels === 0, "the hung-up upgrades' slots to come back");
    // The cap reached: the refusal takes no slot, and the two open channels hold two.
    const first = await rawSocket(origin);
    await rawSocket(origin);
    expect((await rawUpgrade(origin, { origin })).status).toBe(429);
    expect(slotsNow()).toEqual({ total: 2, mine: 2 });
    first.ws.close();
    await first.closed;
    await until(() => channel.slots.total === 1, "a closed channel's slot to come back");
    expect((await rawUpgrade(origin, { origin })).status).toBe(101);
  });

  it("200 malformed upgrades, then a well-formed one from the same address is accepted", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen);
    const answers = await Promise.all(Array.from({ length: 200 }, () => rawExchange(origin, upgradeHead(origin, { "sec-websocket-version": "7" }))));
    expect(answers.every((answer) => answer.startsWith("HTTP/1.1 400"))).toBe(true);
    await until(() => channel.slots.total === 0, "every malformed upgrade's slot to come back");
    expect((await rawUpgrade(origin, { origin })).status).toBe(101);
    expect(channel.stats.refusedUpgrades.too_many).toBe(0);
  });

  it("caps channels in all, over every client", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxChannels: 3 });
    await Promise.all([rawSocket(origin), rawSocket(origin), rawSocket(origin)]);
    const refused = await rawUpgrade(origin, { origin });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("at most 3 channels at once");
    expect(channel.slots.total).toBe(3);
  });
});

describe("a client that never reads", () => {
  it("flooding pings: the app answers a few, counts the rest, and closes the channel for them without queuing anything", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen);
    const socket = await neverReading(origin);
    cleanups.push(() => socket.destroy());
    const ping = clientFrame(1, Buffer.from(JSON.stringify({ t: "ping", n: 1 })));
    let maxQueued = 0;
    const watcher = setInterval(() => (maxQueued = Math.max(maxQueued, channel.queuedBytes)), 5);
    cleanups.push(() => clearInterval(watcher));
    await writeUntilClosed(socket, ping, 8_000);
    await until(() => channel.openChannels === 0, "the channel to be closed");
    expect(channel.stats.badFrames).toBe(1);
    expect(channel.stats.pingsIgnored).toBeGreaterThan(32);
    expect(maxQueued).toBeLessThan(64 * 1024);
    expect(channel.slots.total).toBe(0);
  });

  it("writing faster than it reads: past the high-water mark the app stops reading it, and queues at most twice the mark", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const highWater = 256 * 1024;
    const { origin, channel } = await startApp(seen, { pingIntervalMs: 1_000, socketHighWater: highWater });
    const socket = await neverReading(origin);
    cleanups.push(() => socket.destroy());
    // Each open is refused (not routable) with a fail frame: answers the page never reads.
    let id = 0;
    const opens = () =>
      Buffer.concat(
        Array.from({ length: 64 }, () => clientFrame(1, Buffer.from(JSON.stringify({ t: "open", id: ++id, method: "GET", path: "/api/none", headers: [] })))),
      );
    let maxQueued = 0;
    const watcher = setInterval(() => (maxQueued = Math.max(maxQueued, channel.queuedBytes)), 5);
    cleanups.push(() => clearInterval(watcher));
    const end = Date.now() + 8_000;
    let written = 0;
    while (!socket.destroyed && Date.now() < end) {
      const batch = opens();
      written += batch.length;
      if (!socket.write(batch)) await new Promise((resolve) => setTimeout(resolve, 20));
      if (socket.writableLength > 8 * 1024 * 1024) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await until(() => channel.openChannels === 0, "the channel to be dropped");
    expect(channel.stats.dropped.heartbeat).toBe(1);
    expect(written).toBeGreaterThan(4 * highWater);
    expect(maxQueued).toBeLessThanOrEqual(2 * highWater);
    expect(channel.slots.total).toBe(0);
  });

  it("sending unsolicited pongs and pings once a second does not keep it alive", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { pingIntervalMs: 500 });
    const socket = await neverReading(origin);
    cleanups.push(() => socket.destroy());
    const timer = setInterval(() => {
      socket.write(clientFrame(0xa, Buffer.from("guess-123")));
      socket.write(clientFrame(1, Buffer.from(JSON.stringify({ t: "ping", n: 2 }))));
    }, 200);
    cleanups.push(() => clearInterval(timer));
    await until(() => channel.openChannels === 0, "the channel to be dropped", 5_000);
    expect(channel.stats.dropped.heartbeat).toBe(1);
  });

  it("opening streams it never credits or reads: the bodies wait on the socket's buffer, and the app still serves another page", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const highWater = 256 * 1024;
    const { origin, channel } = await startApp(seen, { pingIntervalMs: 2_000, socketHighWater: highWater });
    floodPulled = 0;
    const socket = await neverReading(origin);
    cleanups.push(() => socket.destroy());
    for (let id = 1; id <= 200; id++)
      socket.write(clientFrame(1, Buffer.from(JSON.stringify({ t: "open", id, method: "GET", path: "/api/mcp/stdio/flood", headers: [] }))));
    await until(() => seen.requests.length === 200, "the streams to open");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queued = channel.queuedBytes;
    expect(queued).toBeLessThanOrEqual(highWater + 64 * 1024 + 4 * 1024);
    // Each stream holds at most the chunk it is waiting to write and the next: not its window (200 × 256 KiB).
    expect(floodPulled).toBeLessThan(200 * 2 * 64 * 1024 + highWater);
    const client = pageClient(origin);
    expect((await client.fetch(`${origin}/api/mcp/proxy`, { method: "POST", body: "still here" })).status).toBe(201);
    await until(() => channel.stats.dropped.heartbeat === 1, "the never-reading channel to be dropped", 10_000);
    await until(() => seen.aborted.filter((path) => path === "/api/mcp/stdio/flood").length === 200, "its 200 requests to end");
  });

  it("request bodies held at once per channel are capped: past it an open is refused with too_large, and accepted again once streams end", async () => {
    const seen: Seen = { requests: [], aborted: [] };
    const { origin, channel } = await startApp(seen, { maxBodyBytesInFlight: 100 * 1024 });
    const raw = await rawSocket(origin);
    const body = "x".repeat(40 * 1024);
    for (let id = 1; id <= 3; id++) raw.ws.send(JSON.stringify({ t: "open", id, method: "POST", path: "/api/mcp/stdio/hang", headers: [], body }));
    await until(() => raw.frames.some((f) => (f as { id?: number }).id === 3), "the third open to be refused");
    expect(raw.frames).toContainEqual(expect.objectContaining({ t: "fail", id: 3, code: "too_large" }));
    raw.ws.send(JSON.stringify({ t: "cancel", id: 1 }));
    raw.ws.send(JSON.stringify({ t: "open", id: 4, method: "POST", path: "/api/mcp/proxy", headers: [], body }));
    await until(() => raw.frames.some((f) => (f as { t: string; id?: number }).t === "head" && (f as { id?: number }).id === 4), "the fourth to be answered");
    expect(channel.stats.refusedStreams).toBe(1);
  });
});
