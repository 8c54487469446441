/**
 * The page's channel (/api/channel) as an attacker meets it on the production server: raw
 * upgrades and hand-made frames from a plain client, not a browser that behaves
 * (docs/ARCHITECTURE.md, "The channel"). Every request the channel carries passes its route's
 * guard, so the stdio bridge still wants the terminal's token.
 */
import { rawUpgrade } from "../fixtures/raw-upgrade";
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
});
