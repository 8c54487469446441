import type { LookupAddress } from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleProxyRequest, HOSTED_PROXY_CAPS, proxyOptionsFor } from "@/lib/mcp/proxy/server/proxy";
import type { ProxyOptions } from "@/lib/mcp/proxy/server/proxy";
import { createProxyFetch } from "@/lib/mcp/proxy/proxy-fetch";
import { connectClient } from "../../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { startLoopbackServer } from "@/lib/http/node/loopback-server";
import type { LoopbackServer } from "@/lib/http/node/loopback-server";

const resolveAll = (hostname: string): Promise<LookupAddress[]> => {
  const table: Record<string, string> = { "demo.test": "127.0.0.1", "rebind.test": "169.254.169.254" };
  const address = table[hostname];
  return address
    ? Promise.resolve([{ address, family: 4 }])
    : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
};
const OPTIONS: ProxyOptions = { allowList: ["127.0.0.1", "demo.test"], resolveAll, timeoutMs: 2_000 };

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let proxy: LoopbackServer;
let echo: LoopbackServer;
let silent: http.Server;
let silentUrl: string;

beforeAll(async () => {
  demo = await startDemoHost();
  proxy = await startLoopbackServer((request) => handleProxyRequest(request, OPTIONS));
  // Echoes the headers it received; sets a cookie and a session id to see which come back.
  echo = await startLoopbackServer((request) => {
    if (new URL(request.url).pathname === "/redirect") return Promise.resolve(new Response(null, { status: 307, headers: { location: "/elsewhere" } }));
    return Promise.resolve(
      Response.json(Object.fromEntries(request.headers), { headers: { "set-cookie": "upstream=1", "mcp-session-id": "s-123", "x-internal": "no" } }),
    );
  });
  // Accepts connections and never answers, for the timeout.
  silent = http.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await Promise.all([demo.close(), proxy.close(), echo.close()]);
});

const proxyFetch = () => createProxyFetch({ proxyUrl: `${proxy.url}/api/mcp/proxy` });

async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string; cause?: string } }).error };
}

describe("MCP proxy forwarding", () => {
  it("carries a full MCP session (JSON responses) to a loopback demo server", async () => {
    const client = await connectClient(demo.urlFor("news"), { fetch: proxyFetch() });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["web_search"]);
    const result = await client.callTool({ name: "web_search", arguments: { query: "elections", limit: 1 } });
    expect((result.structuredContent as { results: unknown[] }).results).toHaveLength(1);
    await client.close();
  });

  it("streams SSE responses, progress notifications included", async () => {
    const client = await connectClient(demo.urlFor("lab"), { fetch: proxyFetch() });
    const progress: number[] = [];
    const result = await client.callTool({ name: "sleep", arguments: { ms: 200 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ sleptMs: 200, progressNotifications: 2 });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  it("resolves names at connect time with the guarded lookup", async () => {
    const port = new URL(demo.url).port;
    const client = await connectClient(`http://demo.test:${port}/api/demo-mcp/shipping`, { fetch: proxyFetch() });
    expect((await client.listTools()).tools.length).toBe(6);
    await client.close();
  });

  it("forwards MCP headers and x-mcp-header-*, never cookies, and returns only MCP response headers", async () => {
    const response = await fetch(`${proxy.url}/api/mcp/proxy`, {
      method: "POST",
      headers: {
        "x-mcp-target": `${echo.url}/mcp`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        // The browser's own credentials for this app (HTTP Basic of a site in front of it).
        authorization: "Basic YWRtaW46aHVudGVyMg==",
        "x-mcp-header-authorization": "Bearer abc",
        "mcp-protocol-version": "2025-11-25",
        cookie: "app_session=secret",
        "x-mcp-header-x-api-key": "k-1",
        "x-mcp-header-host": "evil.example",
        "x-other": "dropped",
      },
      body: "{}",
    });
    expect(response.status).toBe(200);
    const seen = (await response.json()) as Record<string, string>;
    expect(seen).toMatchObject({ authorization: "Bearer abc", "mcp-protocol-version": "2025-11-25", "x-api-key": "k-1", "content-type": "application/json" });
    expect(seen.host).toBe(new URL(echo.url).host);
    for (const absent of ["cookie", "x-other", "x-mcp-target", "x-mcp-header-x-api-key"]) expect(seen[absent], absent).toBeUndefined();
    expect(response.headers.get("mcp-session-id")).toBe("s-123");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-internal")).toBeNull();
  });
});

describe("MCP proxy errors", () => {
  const send = (target: string | null, init: RequestInit = {}, options: ProxyOptions = OPTIONS) =>
    handleProxyRequest(
      new Request("http://app/api/mcp/proxy", { method: "POST", body: "{}", ...init, headers: target ? { "x-mcp-target": target } : {} }),
      options,
    );

  it("400 without a target", async () => {
    expect(await errorOf(await send(null))).toMatchObject({ status: 400, code: "bad_request:proxy" });
  });

  it("405 for other methods", async () => {
    const response = await send(`${echo.url}/mcp`, { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
  });

  it("403 for guard refusals: metadata, unlisted loopback, and names resolving to metadata", async () => {
    expect(await errorOf(await send("http://169.254.169.254/latest/meta-data/"))).toMatchObject({ status: 403, code: "refused:proxy" });
    expect(await errorOf(await send(`${echo.url}/mcp`, {}, { resolveAll }))).toMatchObject({
      status: 403,
      message: expect.stringContaining("allow-list") as unknown,
    });
    const rebind = await errorOf(await send("http://rebind.test/mcp"));
    expect(rebind).toMatchObject({ status: 403, code: "refused:proxy" });
    expect(rebind.message).toContain("169.254.169.254");
  });

  it("502 with a cause when the upstream cannot be reached", async () => {
    expect(await errorOf(await send("http://nowhere.test/mcp"))).toMatchObject({ status: 502, code: "unreachable:proxy", cause: "dns" });
    const closed = await startLoopbackServer(() => Promise.resolve(new Response()));
    const closedUrl = `${closed.url}/mcp`;
    await closed.close();
    expect(await errorOf(await send(closedUrl))).toMatchObject({ status: 502, cause: "refused" });
    expect(await errorOf(await send(silentUrl, {}, { ...OPTIONS, timeoutMs: 150 }))).toMatchObject({ status: 502, cause: "timeout" });
    const redirect = await errorOf(await send(`${echo.url}/redirect`));
    expect(redirect).toMatchObject({ status: 502, cause: "redirect" });
    expect(redirect.message).toContain(`${echo.url}/elsewhere`);
  });

  it("413 when the request body is over the cap", async () => {
    expect(await errorOf(await send(`${echo.url}/mcp`, { body: "x".repeat(100) }, { ...OPTIONS, maxRequestBytes: 10 }))).toMatchObject({
      status: 413,
      code: "too_large:proxy",
    });
  });
});

describe("hosted stream caps (finding 3)", () => {
  let endless: http.Server;
  let endlessUrl: string;
  beforeAll(async () => {
    // An SSE stream that never ends by itself: a 64-byte event every 20 ms.
    endless = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const timer = setInterval(() => response.write(`data: ${"x".repeat(56)}\n\n`), 20);
      response.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    endless.closeAllConnections();
    await new Promise((resolve) => endless.close(resolve));
  });

  const read = (options: ProxyOptions) =>
    handleProxyRequest(new Request("http://127.0.0.1/api/mcp/proxy", { headers: { "x-mcp-target": endlessUrl, accept: "text/event-stream" } }), options).then(
      (r) => r.text(),
    );

  it("ends a stream after maxStreamMs", async () => {
    const text = await read({ ...OPTIONS, maxStreamMs: 300 });
    expect(text.length).toBeGreaterThan(0);
    expect(text).toMatch(/^data: x+\n\n/);
  });

  it("ends a stream once it has relayed maxResponseBytes", async () => {
    const text = await read({ ...OPTIONS, maxResponseBytes: 200 });
    expect(text.length).toBeLessThanOrEqual(200);
  });
});

describe("proxyOptionsFor", () => {
  it("hosted: reads the allow-list, allow-only flag and timeout, and caps streams", () => {
    expect(
      proxyOptionsFor("hosted", {
        MCP_PROXY_ALLOW: " localhost, 10.0.0.0/8 ,",
        MCP_PROXY_ALLOW_ONLY: "1",
        MCP_PROXY_TIMEOUT_MS: "5000",
        MCP_PROXY_MAX_STREAM_MS: "1000",
      }),
    ).toEqual({
      pool: "hosted",
      allowList: ["localhost", "10.0.0.0/8"],
      allowListOnly: true,
      timeoutMs: 5000,
      maxStreamMs: 1000,
      maxResponseBytes: HOSTED_PROXY_CAPS.maxResponseBytes,
    });
    expect(proxyOptionsFor("hosted", {})).toEqual({ pool: "hosted", allowList: [], allowListOnly: false, ...HOSTED_PROXY_CAPS });
  });

  it("local: loopback and private targets pass, streams are not capped", () => {
    const local = proxyOptionsFor("local", {});
    expect(local.allowList).toEqual(expect.arrayContaining(["localhost", "127.0.0.0/8", "::1", "10.0.0.0/8"]));
    expect(local.maxStreamMs).toBeUndefined();
    expect(local.maxResponseBytes).toBeUndefined();
  });
});

describe("the proxy's kept-alive sockets", () => {
  it("a request that meets a pooled socket the server drops at that moment (ECONNRESET) is sent again on a fresh one, body included", async () => {
    // Answers each socket's first request; drops the socket on its second, as a server closing an idle keep-alive socket does.
    const seen: string[] = [];
    const flaky = http.createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) return void socket.destroy();
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        seen.push(body);
        res.writeHead(200, { "content-type": "application/json", connection: "keep-alive" }).end(JSON.stringify({ body }));
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/mcp`;
    // The local pool keeps sockets alive between requests.
    const pooled = await startLoopbackServer((request) => handleProxyRequest(request, { ...OPTIONS, pool: "local" }));
    try {
      const send = (text: string) =>
        fetch(`${pooled.url}/api/mcp/proxy`, { method: "POST", headers: { "x-mcp-target": target, "content-type": "application/json" }, body: text });
      expect((await send('{"n":1}')).status).toBe(200);
      const second = await send('{"n":2}');
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual({ body: '{"n":2}' });
      expect(seen).toEqual(['{"n":1}', '{"n":2}']);
    } finally {
      await pooled.close();
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });
});
