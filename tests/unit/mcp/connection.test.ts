import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import type { ConnectOptions, McpConnection } from "@/lib/mcp/connection";
import { ConnectionError } from "@/lib/mcp/connection-errors";
import { demoServerPath } from "@/lib/demo-servers/catalog";
import { handleProxyRequest } from "@/lib/mcp/proxy/server/proxy";
import type { FetchLike } from "@/lib/mcp/proxy/proxy-fetch";
import type { ServerConfig } from "@/lib/mcp/types";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { startLoopbackServer } from "@/lib/http/node/loopback-server";
import type { LoopbackServer } from "@/lib/http/node/loopback-server";
import { adderServer, liarServer, startHangingServer, startLegacySseServer, startMcpHttpServer, startStaticServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";
import { startOutageFront } from "../../fixtures/mcp/outage";
import { startModernServer } from "../../fixtures/mcp/modern-server";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let proxy: LoopbackServer;
let strictProxy: LoopbackServer;
let adder: StatefulHost;
let keyed: StatefulHost;
const open: McpConnection[] = [];

beforeAll(async () => {
  [demo, proxy, strictProxy, adder, keyed] = await Promise.all([
    startDemoHost(),
    // The app's proxy, with loopback allow-listed as a person running the app locally would.
    startLoopbackServer((request) => handleProxyRequest(request, { allowList: ["127.0.0.1"], timeoutMs: 2_000 })),
    // The same proxy as a hosted playground runs it: private addresses refused.
    startLoopbackServer((request) => handleProxyRequest(request)),
    startMcpHttpServer(() => adderServer()),
    startMcpHttpServer(() => adderServer("keyed"), { requireHeader: ["x-api-key", "sesame"], forbidHeader: ["x-api-key", "wrong"] }),
  ]);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all([demo.close(), proxy.close(), strictProxy.close(), adder.close(), keyed.close()]);
});

function http(url: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  return { id: "s", name: "s", transport: "streamable-http", url, headers: {}, enabled: true, ...extra };
}

/** Options as the page builds them, with the test's "page" on the demo host. */
function pageOptions(extra: Partial<ConnectOptions> = {}): ConnectOptions {
  return { baseUrl: demo.url, proxyUrl: `${proxy.url}/api/mcp/proxy`, timeoutMs: 5_000, ...extra };
}

async function connect(config: ServerConfig, options: ConnectOptions = pageOptions()): Promise<McpConnection> {
  const connection = await connectToServer(config, options);
  open.push(connection);
  return connection;
}

async function failure(config: ServerConfig, options: ConnectOptions = pageOptions()): Promise<ConnectionError> {
  const error = await connectToServer(config, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

/** A fetch that fails every request not aimed at the proxy, the way a CORS refusal does. */
function corsBlockedFetch(calls: string[] = []): FetchLike {
  return (url, init) => {
    const href = typeof url === "string" ? url : url.href;
    calls.push(href);
    if (!href.startsWith(proxy.url) && !href.startsWith(strictProxy.url)) return Promise.reject(new TypeError("Failed to fetch"));
    return fetch(url, init);
  };
}

describe("connectToServer: demo servers, same origin", () => {
  it("connects to a relative demo URL directly over Streamable HTTP and lists its tools", async () => {
    const connection = await connect(http(demoServerPath("shipping")));
    expect(connection).toMatchObject({ serverInfo: { name: "shipping" }, transport: "streamable-http", via: "direct" });
    expect(connection.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await connection.listTools()).map((t) => t.name)).toContain("get_quote");
    expect(await connection.listPrompts()).toEqual([]);
    // Its one resource is the MCP App of get_quote (lib/demo-servers/quote-app.ts).
    expect((await connection.listResources()).map((r) => r.uri)).toEqual(["ui://shipping/quote.html"]);
  });

  it("calls a tool and reports progress over an SSE response (lab)", async () => {
    const connection = await connect(http(demoServerPath("lab")));
    const progress: number[] = [];
    const result = await connection.callTool("sleep", { ms: 300 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ sleptMs: 300, progressNotifications: 3 });
    expect(progress).toEqual([1, 2, 3]);
  });

  it("gives every request its own abort signal, so listeners do not pile up on the transport's over a session", async () => {
    // Abort listeners added, per signal (fetch removes its own only when a request is collected).
    const live = new Map<EventTarget, number>();
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the target as `this`
    const original = EventTarget.prototype.addEventListener;
    const add = vi.spyOn(EventTarget.prototype, "addEventListener").mockImplementation(function (this: EventTarget, ...args) {
      if (args[0] === "abort") live.set(this, (live.get(this) ?? 0) + 1);
      original.apply(this, args);
    });
    let most = 0;
    try {
      const connection = await connect(http(demoServerPath("lab")));
      for (let i = 0; i < 300; i++) await connection.callTool("echo", { message: "m" });
      most = Math.max(...live.values());
    } finally {
      add.mockRestore();
    }
    // Before, the transport's one signal collected a listener per request (300 here; Node warns past 1 500).
    expect(most).toBeLessThan(20);
  });

  it("returns isError results and rejects on protocol errors and aborts", async () => {
    const connection = await connect(http(demoServerPath("lab")));
    const failed = await connection.callTool("fail", { message: "nope" });
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "nope" }] });
    await expect(connection.callTool("protocol_error", {})).rejects.toThrow(/Deliberate protocol error/);
    const aborter = new AbortController();
    const pending = connection.callTool("sleep", { ms: 2_000 }, { signal: aborter.signal });
    aborter.abort(new Error("stopped by the person"));
    await expect(pending).rejects.toThrow(/stopped by the person/);
  });

  it("never sends same-origin servers through the proxy", async () => {
    const calls: string[] = [];
    const error = await failure(http("/api/demo-mcp/nope"), pageOptions({ fetch: corsBlockedFetch(calls) }));
    expect(error.kind).toBe("cors-or-network");
    expect(calls.every((c) => c.startsWith(demo.url))).toBe(true);
  });
});

describe("connectToServer: other servers", () => {
  it("returns a mismatching structuredContent as it is (flagging is mcp-tools' job)", async () => {
    const liar = await startMcpHttpServer(liarServer);
    try {
      const connection = await connect(http(`${liar.url}/mcp`));
      await connection.listTools();
      const result = await connection.callTool("add", { a: 1, b: 2 });
      expect(result.structuredContent).toEqual({ sum: "three" });
    } finally {
      await liar.close();
    }
  });

  it("sends the configured headers", async () => {
    const connection = await connect(http(`${keyed.url}/mcp`, { headers: { "x-api-key": "sesame" } }));
    expect(connection.serverInfo.name).toBe("keyed");
    expect((await connection.callTool("add", { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
  });

  it("falls back to legacy SSE when the POST is answered 404", async () => {
    const legacy = await startLegacySseServer(() => adderServer("legacy"));
    try {
      const connection = await connect(http(`${legacy.url}/sse`));
      expect(connection).toMatchObject({ transport: "sse", via: "direct", serverInfo: { name: "legacy" } });
      expect((await connection.callTool("add", { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
      await connection.close();
    } finally {
      await legacy.close();
    }
  });

  it("goes through the proxy when the direct request fails like CORS, headers included", async () => {
    const calls: string[] = [];
    const connection = await connect(http(`${keyed.url}/mcp`, { headers: { "x-api-key": "sesame" } }), pageOptions({ fetch: corsBlockedFetch(calls) }));
    expect(connection.via).toBe("proxy");
    expect(calls[0]).toBe(`${keyed.url}/mcp`);
    expect((await connection.callTool("add", { a: 4, b: 5 })).structuredContent).toEqual({ sum: 9 });
  });

  it("speaks 2026-07-28 through the proxy: the routing headers reach a strict server, input_required rounds come back, and a task runs to its end", async () => {
    const modern = await startModernServer({ taskMs: 300 });
    try {
      let round = 0;
      const connection = await connect(
        http(`${modern.url}/mcp`),
        pageOptions({
          via: "proxy",
          elicit: (_config, params) => {
            const content: Record<string, string> = ++round === 1 ? { name: "Ada" } : { colour: params.message.includes("Ada") ? "green" : "?" };
            return Promise.resolve({ action: "accept" as const, content });
          },
        }),
      );
      expect(connection).toMatchObject({ via: "proxy", protocolVersion: "2026-07-28" });
      expect((await connection.callTool("two_questions", {})).structuredContent).toEqual({ name: "Ada", colour: "green" });
      // The task's question gets an answer that does not fit its form, which the server takes as no.
      expect((await connection.callTool("report", {})).structuredContent).toEqual({ pages: 9, appendix: false });
      expect(modern.methods).toEqual(expect.arrayContaining(["tasks/get", "tasks/update"]));
      expect(modern.methods).not.toContain("initialize");
    } finally {
      await modern.close();
    }
  });

  it("speaks legacy SSE through the proxy too", async () => {
    const legacy = await startLegacySseServer(() => adderServer("legacy"));
    try {
      const connection = await connect(http(`${legacy.url}/sse`), pageOptions({ via: "proxy" }));
      expect(connection).toMatchObject({ transport: "sse", via: "proxy" });
      expect((await connection.callTool("add", { a: 2, b: 2 })).structuredContent).toEqual({ sum: 4 });
      await connection.close();
    } finally {
      await legacy.close();
    }
  });
});

/** A loopback URL where nothing listens (a server started and closed again). */
async function deadUrl(): Promise<string> {
  const server = await startStaticServer(200, "");
  await server.close();
  return `${server.url}/mcp`;
}

describe("connectToServer: failures", () => {
  it("refused port, direct: kind refused", async () => {
    const error = await failure(http(await deadUrl()), pageOptions({ via: "direct" }));
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/Is the server running/);
  });

  it("refused port, through the proxy after a CORS-like failure: the proxy's cause becomes the kind", async () => {
    const error = await failure(http(await deadUrl()), pageOptions({ fetch: corsBlockedFetch() }));
    expect(error).toMatchObject({ kind: "refused", status: 502 });
  });

  it("a proxy that refuses the target: kind refused-by-proxy, with what to do", async () => {
    const error = await failure(http(`${adder.url}/mcp`), pageOptions({ fetch: corsBlockedFetch(), proxyUrl: `${strictProxy.url}/api/mcp/proxy` }));
    expect(error.kind).toBe("refused-by-proxy");
    expect(error.message).toMatch(/Enable CORS on the server/);
  });

  it("the proxy itself unreachable: kind cors-or-network", async () => {
    const error = await failure(http(`${adder.url}/mcp`), pageOptions({ via: "proxy", proxyUrl: `${await deadUrl()}/api/mcp/proxy` }));
    expect(error.kind).toBe("cors-or-network");
    expect(error.message).toMatch(/proxy could not be reached/);
  });

  it("a server speaking an unknown protocol version: kind protocol, naming both versions", async () => {
    const odd = await startLoopbackServer(async (request) => {
      const body = (await request.json()) as { id?: number; method?: string };
      if (body.id === undefined) return new Response(null, { status: 202 });
      // A 2025 server does not know `server/discover`, the probe a 2026-07-28 client asks first.
      if (body.method !== "initialize") return Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "Method not found" } });
      return Response.json({
        jsonrpc: "2.0",
        id: body.id,
        result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "odd", version: "1" } },
      });
    });
    const error = await failure(http(`${odd.url}/mcp`), pageOptions({ via: "direct" }));
    await odd.close();
    expect(error.kind).toBe("protocol");
    expect(error.message).toMatch(
      /MCP protocol version 1999-01-01, which this playground does not speak \(it speaks 2026-07-28, 2025-11-25, .*\)\. Update the server, or its MCP SDK\./,
    );
  });

  it("401: kind unauthorized, asking for an Authorization header", async () => {
    const error = await failure(http(`${keyed.url}/mcp`));
    expect(error).toMatchObject({ kind: "unauthorized", status: 401 });
    expect(error.message).toMatch(/add an Authorization header/);
  });

  it("401 through the proxy is still unauthorized (the upstream's answer, not the proxy's)", async () => {
    const error = await failure(http(`${keyed.url}/mcp`), pageOptions({ via: "proxy" }));
    expect(error.kind).toBe("unauthorized");
  });

  it("403: kind forbidden", async () => {
    const error = await failure(http(`${keyed.url}/mcp`, { headers: { "x-api-key": "wrong" } }));
    expect(error).toMatchObject({ kind: "forbidden", status: 403 });
  });

  it("an HTML page answering 200: kind not-mcp", async () => {
    const page = await startStaticServer(200, "<!doctype html><title>Hello</title>");
    try {
      const error = await failure(http(`${page.url}/`));
      expect(error.kind).toBe("not-mcp");
      expect(error.message).toMatch(/usually end in \/mcp/);
    } finally {
      await page.close();
    }
  });

  it("an HTML 404 for both transports: kind not-mcp, naming the POST's status", async () => {
    const page = await startStaticServer(404, "<!doctype html><title>Not found</title>");
    try {
      const error = await failure(http(`${page.url}/wrong`));
      expect(error).toMatchObject({ kind: "not-mcp", status: 404 });
      expect(error.message).toMatch(/an HTML page/);
    } finally {
      await page.close();
    }
  });

  it("a server that never answers: kind timeout, on time", async () => {
    const silent = await startHangingServer();
    try {
      const started = Date.now();
      const error = await failure(http(`${silent.url}/mcp`), pageOptions({ timeoutMs: 300 }));
      expect(error.kind).toBe("timeout");
      expect(error.message).toMatch(/within 0.3 s/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await silent.close();
    }
  });

  it("a legacy SSE server that never sends its endpoint: kind timeout", async () => {
    const silent = await startLoopbackServer((request) =>
      Promise.resolve(
        request.method === "POST"
          ? new Response("no", { status: 405 })
          : new Response(new ReadableStream(), { headers: { "content-type": "text/event-stream" } }),
      ),
    );
    try {
      const error = await failure(http(`${silent.url}/sse`), pageOptions({ timeoutMs: 300 }));
      expect(error.kind).toBe("timeout");
    } finally {
      await silent.close();
    }
  });

  it("dns and tls failures are named from the network error's code (Node gives it; browsers do not)", async () => {
    const failing =
      (code: string): FetchLike =>
      () =>
        Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) }));
    const dns = await failure(http("https://nowhere.invalid/mcp"), pageOptions({ via: "direct", fetch: failing("ENOTFOUND") }));
    expect(dns.kind).toBe("dns");
    expect(dns.message).toMatch(/nowhere\.invalid/);
    const tls = await failure(http("https://self-signed.test/mcp"), pageOptions({ via: "direct", fetch: failing("DEPTH_ZERO_SELF_SIGNED_CERT") }));
    expect(tls.kind).toBe("tls");
  });

  it("stdio servers need the local bridge: kind unsupported", async () => {
    const error = await failure({ id: "x", name: "files", transport: "stdio", command: "npx", enabled: true });
    expect(error.kind).toBe("unsupported");
  });
});

describe("a connection that drops", () => {
  it("rejects the call in flight with kind disconnected and tells its listeners", async () => {
    const front = await startOutageFront(demo.url);
    try {
      const connection = await connect(http(`${front.url}${demoServerPath("lab")}`));
      const lost: string[] = [];
      connection.onLost((e) => lost.push(e.kind));
      const pending = connection.callTool("sleep", { ms: 3_000 });
      await new Promise((resolve) => setTimeout(resolve, 150));
      await front.cut();
      await expect(pending).rejects.toMatchObject({ kind: "disconnected" });
      expect(lost).toEqual(["disconnected"]);
      await expect(connection.callTool("echo", { message: "hi" })).rejects.toMatchObject({ kind: "disconnected" });
    } finally {
      await front.close();
    }
  });
});

describe("a server that hides Mcp-Session-Id from the browser", () => {
  /** Direct answers lose the session id header, as a browser's CORS filter does when it is not exposed. */
  const hidingFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    const href = typeof url === "string" ? url : url.href;
    if (href.startsWith(proxy.url) || !response.headers.has("mcp-session-id")) return response;
    const headers = new Headers(response.headers);
    headers.delete("mcp-session-id");
    return new Response(response.body, { status: response.status, headers });
  };

  it("is reached through the proxy in auto mode", async () => {
    const host = await startMcpHttpServer(() => adderServer("sessions"), { stateful: true });
    try {
      const connection = await connect(http(`${host.url}/mcp`), pageOptions({ fetch: hidingFetch }));
      expect(connection.via).toBe("proxy");
      expect((await connection.callTool("add", { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
      await connection.close();
    } finally {
      await host.close();
    }
  });

  it("is explained when the proxy is not an option", async () => {
    const host = await startMcpHttpServer(() => adderServer("sessions"), { stateful: true });
    try {
      const error = await failure(http(`${host.url}/mcp`), pageOptions({ fetch: hidingFetch, via: "direct" }));
      expect(error.kind).toBe("cors-or-network");
      expect(error.message).toMatch(/Access-Control-Expose-Headers/);
    } finally {
      await host.close();
    }
  });
});
