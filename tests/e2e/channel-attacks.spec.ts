/**
 * The page's channel (/api/channel) as an attacker meets it on the production server: raw
 * upgrades and hand-made frames from a plain client, not a browser that behaves
 * (docs/channel.md, "The channel"). Every request the channel carries passes its route's
 * guard, so the stdio bridge still wants the terminal's token.
 */
import { readFileSync } from "node:fs";
import { startAppServer } from "../fixtures/app-server";
import { clientFrame, neverReading, rawExchange, rawUpgrade, upgradeHead, writeUntilClosed } from "../fixtures/raw-upgrade";
import { expect, test } from "./fixtures";

interface Frame {
  t: string;
  id?: number;
  status?: number;
  code?: string;
}

/** A channel opened by hand with the app's own Origin, as a script could forge it. */
async function openChannel(base: string): Promise<{ ws: WebSocket; frames: Frame[]; bodies: Map<number, string>; closed: Promise<number> }> {
  const ws = new WebSocket(`${base.replace("http", "ws")}/api/channel`, { headers: { origin: base } } as unknown as string[]);
  ws.binaryType = "arraybuffer";
  const frames: Frame[] = [];
  const bodies = new Map<number, string>();
  ws.onmessage = (event) => {
    if (typeof event.data === "string") return void frames.push(JSON.parse(event.data) as Frame);
    const bytes = new Uint8Array(event.data as ArrayBuffer);
    const id = new DataView(bytes.buffer).getUint32(0);
    bodies.set(id, (bodies.get(id) ?? "") + new TextDecoder().decode(bytes.subarray(4)));
  };
  const closed = new Promise<number>((resolve) => (ws.onclose = (event) => resolve(event.code)));
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return { ws, frames, bodies, closed };
}

const until = async (check: () => boolean) => expect.poll(check, { timeout: 10_000 }).toBe(true);

test.describe("the channel, attacked", () => {
  test("a cross-origin upgrade, a missing Origin and a forged Host are refused before any WebSocket exists", async ({ baseURL }) => {
    const base = baseURL ?? "";
    const crossSite = await rawUpgrade(base, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toContain("refused:channel");
    expect((await rawUpgrade(base, {})).status).toBe(403);
    const port = new URL(base).port;
    const rebound = await rawUpgrade(base, { host: `evil.example:${port}`, origin: `http://evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("DNS rebinding protection");
    expect((await rawUpgrade(base, { origin: base, "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await rawUpgrade(base, { origin: base })).status).toBe(101);
  });

  test("through an accepted channel the stdio bridge still wants the terminal's token, and headers the page forges are not believed", async ({ baseURL }) => {
    const base = baseURL ?? "";
    const channel = await openChannel(base);
    const body = JSON.stringify({ command: "touch", args: ["/tmp/pwned-by-channel"] });
    const json = ["content-type", "application/json"];
    channel.ws.send(JSON.stringify({ t: "open", id: 1, method: "POST", path: "/api/mcp/stdio", headers: [json], body }));
    channel.ws.send(JSON.stringify({ t: "open", id: 2, method: "POST", path: "/api/mcp/stdio", headers: [json, ["x-cmp-local-token", "guess"]], body }));
    // A forged Host and Origin inside the frame are replaced by the upgrade's (a Host of
    // evil.example would be refused as DNS rebinding); a forged X-Forwarded-For is dropped.
    channel.ws.send(
      JSON.stringify({
        t: "open",
        id: 3,
        method: "GET",
        path: "/api/chat/providers",
        headers: [
          ["host", "evil.example"],
          ["origin", "https://evil.example"],
          ["x-forwarded-for", "203.0.113.9"],
        ],
      }),
    );
    await until(() => [1, 2, 3].every((id) => channel.frames.some((f) => f.t === "head" && f.id === id)));
    const head = (id: number) => channel.frames.find((f) => f.t === "head" && f.id === id);
    expect(head(1)?.status).toBe(403);
    expect(head(2)?.status).toBe(403);
    await until(() => channel.frames.some((f) => f.t === "end" && f.id === 2));
    expect(channel.bodies.get(2)).toContain("local token is not this server's");
    // Host and Origin came from the upgrade: the guard let the request through.
    expect(head(3)?.status).toBe(200);
    channel.ws.close();
  });

  test("malformed and oversized frames close that channel; a flood of streams is refused past the cap; the app keeps serving", async ({ baseURL, request }) => {
    const base = baseURL ?? "";
    const garbage = await openChannel(base);
    garbage.ws.send("{not json");
    expect(await garbage.closed).toBe(1008);
    const binary = await openChannel(base);
    binary.ws.send(new Uint8Array([0, 0, 0, 1, 42]));
    expect(await binary.closed).toBe(1008);
    const huge = await openChannel(base);
    huge.ws.send(JSON.stringify({ t: "open", id: 1, method: "POST", path: "/api/chat", headers: [], body: "x".repeat(9 * 1024 * 1024) }));
    expect(await huge.closed).toBe(1009);

    const flood = await openChannel(base);
    const sleep = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sleep", arguments: { ms: 4000 } } });
    const headers = [
      ["content-type", "application/json"],
      ["accept", "application/json, text/event-stream"],
    ];
    for (let id = 1; id <= 1_100; id++) flood.ws.send(JSON.stringify({ t: "open", id, method: "POST", path: "/api/demo-mcp/lab", headers, body: sleep }));
    await until(() => flood.frames.filter((f) => f.t === "fail" && f.code === "too_many_streams").length === 76);
    // Meanwhile the app answers others at once: over HTTP, and on a channel of its own.
    expect((await request.get(`${base}/icon.svg`)).status()).toBe(200);
    const other = await openChannel(base);
    other.ws.send(JSON.stringify({ t: "open", id: 1, method: "GET", path: "/api/chat/providers", headers: [] }));
    await until(() => other.frames.some((f) => f.t === "head" && f.id === 1 && f.status === 200));
    // The accepted ones complete.
    await until(() => flood.frames.filter((f) => f.t === "end").length === 1_024);
    flood.ws.close();
    other.ws.close();
  });

  test("malformed upgrades do not use up the client's channels: 200 of them, then the page's own upgrade is accepted", async ({ baseURL }) => {
    const base = baseURL ?? "";
    for (let batch = 0; batch < 4; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => rawExchange(base, upgradeHead(base, { "sec-websocket-version": "7" }))));
      expect(answers.every((answer) => answer.startsWith("HTTP/1.1 400"))).toBe(true);
    }
    expect((await rawUpgrade(base, { origin: base })).status).toBe(101);
  });

  test("clients that never read (one flooding pings, one opening streams it never credits and claiming to be alive) for 20 s: the app's memory stays bounded, both are dropped, others are served", async () => {
    test.setTimeout(90_000);
    // V8's young generation held at 1 MiB, so the RSS shows what the app holds and not the
    // collector's headroom (which grows to tens of MiB under any allocation-heavy load).
    const app = await startAppServer({ env: { CMP_CHANNEL_HEARTBEAT_MS: "5000", NODE_OPTIONS: "--max-semi-space-size=1" } });
    try {
      const rssOf = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${app.child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
      const base = app.origin;
      // The floor: a page that reads makes the same requests the attacker will; the RSS they
      // take while their results are built (tens of MiB) is the routes' own, not the channel's.
      const headers = [
        ["content-type", "application/json"],
        ["accept", "application/json, text/event-stream"],
      ];
      // 40 answers of about 130 KiB: more than the 4 MiB the app queues toward one page.
      const STREAMS = 40;
      const big = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "big", arguments: { kb: 64 } } });
      const readingPage = async (count: number) => {
        const page = await openChannel(base);
        // 64 KB (about twice that on the wire) fits in one stream's window: it ends without credit.
        for (let id = 1; id <= count; id++) page.ws.send(JSON.stringify({ t: "open", id, method: "POST", path: "/api/demo-mcp/lab", headers, body: big(id) }));
        page.ws.send(JSON.stringify({ t: "open", id: count + 1, method: "GET", path: "/api/chat/providers", headers: [] }));
        await until(() => page.frames.filter((f) => f.t === "end").length === count + 1);
        page.ws.close();
      };
      await readingPage(1);
      expect((await fetch(`${base}/icon.svg`)).status).toBe(200);
      // Another page's channel and a plain load keep asking every 500 ms, in the floor as in the
      // attack, so the floor holds their RSS too.
      const served: number[] = [];
      const other = await openChannel(base);
      let nextId = 1;
      const probe = () => {
        const id = nextId++;
        const started = Date.now();
        other.ws.send(JSON.stringify({ t: "open", id, method: "GET", path: "/api/chat/providers", headers: [] }));
        void fetch(`${base}/icon.svg`).then((response) => response.status === 200 && served.push(Date.now() - started));
      };
      const floorProber = setInterval(probe, 500);
      const floorBefore = rssOf();
      let floorPeak = floorBefore;
      const floorSampler = setInterval(() => (floorPeak = Math.max(floorPeak, rssOf())), 50);
      await readingPage(STREAMS);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      clearInterval(floorSampler);
      clearInterval(floorProber);
      const floor = floorPeak - floorBefore;
      served.length = 0;
      const before = rssOf();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf())), 50);
      const pinger = await neverReading(base);
      const opener = await neverReading(base);
      const opens = Array.from({ length: STREAMS }, (_, i) =>
        clientFrame(1, Buffer.from(JSON.stringify({ t: "open", id: i + 1, method: "POST", path: "/api/demo-mcp/lab", headers, body: big(i + 1) }))),
      );
      opener.write(Buffer.concat(opens));
      // It claims to be alive once a second: a ping of the page's own and an unsolicited pong.
      // Only an echo of the app's random ping counts, and that needs reading.
      const claimer = setInterval(() => {
        opener.write(clientFrame(1, Buffer.from(JSON.stringify({ t: "ping", n: Date.now() }))));
        opener.write(clientFrame(0xa, Buffer.from("alive")));
      }, 1_000);
      // Meanwhile the other page's channel and the plain load keep answering.
      const headsBefore = other.frames.filter((f) => f.t === "head" && f.status === 200).length;
      const prober = setInterval(probe, 500);
      const started = Date.now();
      const written = await writeUntilClosed(pinger, clientFrame(1, Buffer.from(JSON.stringify({ t: "ping", n: 1 }))), 20_000);
      const pingerLasted = Date.now() - started;
      await expect.poll(() => opener.destroyed, { timeout: 20_000 }).toBe(true);
      const openerLasted = Date.now() - started;
      clearInterval(claimer);
      clearInterval(prober);
      clearInterval(sampler);
      // The ping flood is closed for it at once; the quiet one at the heartbeat (two intervals at most).
      expect(pinger.destroyed).toBe(true);
      expect(pingerLasted).toBeLessThan(5_000);
      expect(openerLasted).toBeLessThan(20_000);
      // Beyond what the same requests took from a page that reads: 16 MiB per channel is the
      // stated bound (docs/deploying.md), two channels attacked.
      expect(peak - before).toBeLessThan(floor + 2 * 16 * 1024 * 1024);
      expect(served.length).toBeGreaterThan(5);
      expect(other.frames.filter((f) => f.t === "head" && f.status === 200).length - headsBefore).toBeGreaterThan(5);
      console.log(
        `never-reading clients: ${(written / 1024).toFixed(0)} KiB of pings taken by the sockets before that channel closed (${pingerLasted} ms), the other dropped after ${openerLasted} ms; app RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB (the same requests from a reading page: +${(floor / 2 ** 20).toFixed(0)} MiB)`,
      );
      pinger.destroy();
      opener.destroy();
      other.ws.close();
    } finally {
      await app.stop();
    }
  });

  test("a real page echoes the app's heartbeat: at one ping a second its channel stays open and its servers connected", async ({ page }) => {
    const app = await startAppServer({ env: { CMP_CHANNEL_HEARTBEAT_MS: "1000" } });
    try {
      // Any moment the channel banner shows (a dropped channel) is recorded, however brief.
      await page.addInitScript(() => {
        const seen = ((window as unknown as { bannerSeen: string[] }).bannerSeen = [] as string[]);
        new MutationObserver(() => {
          const banner = document.querySelector('[data-testid="channel-banner"]');
          if (banner) seen.push(banner.textContent ?? "");
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await page.goto(app.printed);
      await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready");
      await expect(page.getByTestId("server-status-lab")).toHaveText("connected");
      await page.waitForTimeout(5_000);
      expect(await page.evaluate(() => (window as unknown as { bannerSeen: string[] }).bannerSeen)).toEqual([]);
      await expect(page.getByTestId("server-status-lab")).toHaveText("connected");
    } finally {
      await app.stop();
    }
  });
});
