import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as startRoute from "@/app/api/mcp/stdio/route";
import { isLoopbackAddress } from "@/lib/http/server/listen-addresses";
import { checkLocalRequest, LOCAL_TOKEN_ENV } from "@/lib/mcp/stdio/server/local-guard";
import type { LocalGuardContext } from "@/lib/mcp/stdio/server/local-guard";
import type { FetchLike } from "@/lib/mcp/proxy/proxy-fetch";
import { startStdioBridge, StdioBridgeClientError } from "@/lib/mcp/stdio/browser/stdio-client";
import { LOCAL_TOKEN_HEADER } from "@/lib/mcp/stdio/stdio-protocol";
import { getStdioSessions } from "@/lib/mcp/stdio/server/stdio-sessions";
import { EVERYTHING_BIN } from "../../../fixtures/mcp/everything";
import type { LoopbackServer } from "@/lib/http/node/loopback-server";
import { rawRequest, stdioHostPerFile } from "../../../fixtures/mcp/stdio-host";

const require = createRequire(import.meta.url);
const memoryPackage = require.resolve("@modelcontextprotocol/server-memory/package.json");
const memoryBin = path.join(path.dirname(memoryPackage), (require(memoryPackage) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");

const SECRET = "sk-test-7f3a9c1e5b2d4068";
// What scripts/serve.mjs hands the server; the page gets it from the printed link.
const TOKEN = "local-token-for-tests-0123456789abcdef";
const NODE = process.execPath;
// A child that lives until killed, and one that dies printing its secret when the first message arrives.
const SLEEPER = ["-e", "setInterval(() => {}, 1000)"];
/** A sleeper of its own: pages share a process only when command, arguments, env and folder are the same. */
const sleeper = (n: number) => ["-e", `setInterval(() => {}, 1000); // ${n}`];
const DIES_ON_FIRST_MESSAGE = ["-e", "process.stdin.once('data', () => { console.error('fatal: bad key ' + process.env.API_KEY); process.exit(7); })"];

let host: LoopbackServer;
let hostHeader: string;
let tmp: string;
const registry = getStdioSessions();

/** What a browser page on the app adds by itself: Sec-Fetch-Site always, Origin on non-GET. */
const asBrowser: FetchLike = (url, init) => {
  const headers = new Headers(init?.headers);
  headers.set("sec-fetch-site", "same-origin");
  if ((init?.method ?? "GET") !== "GET") headers.set("origin", host.url);
  return fetch(url, { ...init, headers });
};

const bridgeOptions = () => ({ baseUrl: host.url, token: TOKEN, fetch: asBrowser });

/** The same, as a page whose requests come by its channel `channel` (the app's end names it in x-cmp-channel). */
const pageOptions = (channel: string) => ({
  baseUrl: host.url,
  token: TOKEN,
  fetch: ((url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-cmp-channel", channel);
    return asBrowser(url, { ...init, headers });
  }) as FetchLike,
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startError(launch: Parameters<typeof startStdioBridge>[0]): Promise<StdioBridgeClientError> {
  const error = await startStdioBridge(launch, bridgeOptions()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StdioBridgeClientError);
  return error as StdioBridgeClientError;
}

/** Headers of a well-formed bridge request from the app's page. */
function pageHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { host: hostHeader, origin: host.url, "sec-fetch-site": "same-origin", [LOCAL_TOKEN_HEADER]: TOKEN, "content-type": "application/json", ...extra };
}

const START_BODY = JSON.stringify({ command: NODE, args: SLEEPER });

// Each test leaves no child behind, even when it fails half-way.
const stdioHost = stdioHostPerFile(TOKEN);
beforeAll(() => {
  host = stdioHost();
  hostHeader = new URL(host.url).host;
  tmp = mkdtempSync(path.join(tmpdir(), "stdio-bridge-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("stdio bridge with server-memory", () => {
  it("shows a running child's stderr without its env values, only with the token", async () => {
    const script = "console.error('warming up with key ' + process.env.API_KEY); process.stdin.on('data', () => undefined); setInterval(() => undefined, 1000)";
    const bridge = await startStdioBridge({ command: NODE, args: ["-e", script], env: { API_KEY: "k-1234567890-secret" } }, bridgeOptions());
    await expect.poll(() => bridge.stderr()).toContain("warming up with key");
    expect(await bridge.stderr()).not.toContain("k-1234567890-secret");
    const target = new URL(bridge.url);
    target.searchParams.set("stderr", "1");
    const { [LOCAL_TOKEN_HEADER]: _token, ...noToken } = pageHeaders();
    const forged = await rawRequest(target.href, { method: "GET", headers: noToken });
    expect(forged.status).toBe(403);
    await bridge.close();
  });

  it("connects, lists tools, writes entities and reads the graph back; DELETE kills the child", async () => {
    const memoryFile = path.join(tmp, "memory.jsonl");
    const bridge = await startStdioBridge({ command: NODE, args: [memoryBin], env: { MEMORY_FILE_PATH: memoryFile } }, bridgeOptions());
    expect(bridge.url.href).toBe(`${host.url}/api/mcp/stdio/${bridge.session}`);
    expect(alive(bridge.pid)).toBe(true);

    const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(bridge.url, { fetch: asBrowser, requestInit: { headers: bridge.headers } });
    await client.connect(transport);
    expect(transport.sessionId).toBe(bridge.session);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "add_observations",
      "create_entities",
      "create_relations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "open_nodes",
      "read_graph",
      "search_nodes",
    ]);
    const entities = [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }];
    await client.callTool({ name: "create_entities", arguments: { entities } });
    const graph = await client.callTool({ name: "read_graph", arguments: {} });
    expect(graph.structuredContent).toEqual({ entities, relations: [] });
    expect(readFileSync(memoryFile, "utf8")).toContain('"name":"Ada"');
    // Its stderr, for the server's view (server-memory announces itself there).
    expect(await bridge.stderr()).toContain("Knowledge Graph MCP Server running on stdio");

    await bridge.close();
    expect(alive(bridge.pid)).toBe(false);
    expect(registry.get(bridge.session)).toBeUndefined();
    const after = await rawRequest(bridge.url.href, { method: "POST", headers: pageHeaders({ accept: "application/json, text/event-stream" }), body: "{}" });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toMatchObject({ error: { code: "not_found:stdio", message: expect.stringContaining("closed (deleted)") as string } });
    await client.close();
  });
});

describe("stdio bridge with server-everything (stdio)", () => {
  it("puts progress on the request's stream and server requests on the GET stream, and relays the answers", async () => {
    const bridge = await startStdioBridge({ command: NODE, args: [EVERYTHING_BIN, "stdio"] }, bridgeOptions());
    const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" }, { capabilities: { roots: {} } });
    let rootsAsked = 0;
    client.setRequestHandler(ListRootsRequestSchema, () => {
      rootsAsked++;
      return { roots: [{ uri: "file:///tmp/project", name: "project" }] };
    });
    await client.connect(new StreamableHTTPClientTransport(bridge.url, { fetch: asBrowser, requestInit: { headers: bridge.headers } }));

    const progress: number[] = [];
    const result = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([1, 2]);
    expect(JSON.stringify(result.content)).toContain("completed");

    // server-everything asks for the roots on its own shortly after initialisation: a
    // server-to-client request, which only the standalone GET stream can carry; its answer
    // travels back in a POST and must reach the child, as the tool result shows.
    await expect.poll(() => rootsAsked, { timeout: 5_000 }).toBeGreaterThan(0);
    const roots = await client.callTool({ name: "get-roots-list", arguments: {} });
    expect(JSON.stringify(roots.content)).toContain("file:///tmp/project");
    await client.close();
    await bridge.close();
  });
});

describe("tabs share a local server's process", () => {
  it("two pages on one server-everything: the same process, their same request ids and progress kept apart, the server's own requests answered by one page, the server lives while a page holds it", async () => {
    const clients = [] as Client[];
    const bridges = [] as Array<Awaited<ReturnType<typeof startStdioBridge>>>;
    const rootsAsked = [0, 0];
    for (const page of [0, 1]) {
      const bridge = await startStdioBridge({ command: NODE, args: [EVERYTHING_BIN, "stdio"] }, pageOptions(`page-${page}`));
      const client = new Client({ name: `page-${page}`, version: "1.0.0" }, { capabilities: { roots: {} } });
      client.setRequestHandler(ListRootsRequestSchema, () => {
        rootsAsked[page] = (rootsAsked[page] ?? 0) + 1;
        return { roots: [{ uri: `file:///tmp/page-${page}`, name: `page ${page}` }] };
      });
      await client.connect(new StreamableHTTPClientTransport(bridge.url, { fetch: asBrowser, requestInit: { headers: bridge.headers } }));
      bridges.push(bridge);
      clients.push(client);
    }
    const [a, b] = clients as [Client, Client];
    const [bridgeA, bridgeB] = bridges as [(typeof bridges)[0], (typeof bridges)[0]];
    expect(bridgeB.pid).toBe(bridgeA.pid);
    expect(a.getServerVersion()).toEqual(b.getServerVersion());
    // Both SDK clients number their requests alike: each gets its own answers and its own progress.
    const progress: number[][] = [[], []];
    const [ra, rb] = await Promise.all(
      [a, b].map((client, i) =>
        client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3 + i * 0.2, steps: 2 + i } }, undefined, {
          onprogress: (p) => progress[i]?.push(p.progress),
        }),
      ),
    );
    expect(progress).toEqual([
      [1, 2],
      [1, 2, 3],
    ]);
    expect(JSON.stringify(ra?.content)).toContain("Duration: 0.3 seconds, Steps: 2");
    expect(JSON.stringify(rb?.content)).toContain("Duration: 0.5 seconds, Steps: 3");
    // The server asked for roots once, on its own: one page answered, and the server has that answer.
    await expect.poll(() => rootsAsked[0]! + rootsAsked[1]!, { timeout: 5_000 }).toBeGreaterThan(0);
    const roots = await b.callTool({ name: "get-roots-list", arguments: {} });
    expect(JSON.stringify(roots.content)).toMatch(/file:\/\/\/tmp\/page-[01]/);
    // One page leaves: the process goes on for the other.
    await a.close();
    await bridgeA.close();
    expect(alive(bridgeB.pid)).toBe(true);
    expect((await b.callTool({ name: "echo", arguments: { message: "still here" } })).content).toEqual([{ type: "text", text: "Echo: still here" }]);
    await b.close();
    await bridgeB.close();
    expect(alive(bridgeB.pid)).toBe(false);
  });

  it("a fresh start (the person's Reconnect) restarts the shared process: the other page's session ends saying so, and its next start shares the new one, within the cap", async () => {
    registry.configure({ maxSessions: 1 });
    const other = await startStdioBridge({ command: NODE, args: SLEEPER }, pageOptions("page-a"));
    const fresh = await startStdioBridge({ command: NODE, args: SLEEPER, fresh: true }, pageOptions("page-b"));
    expect(fresh.pid).not.toBe(other.pid);
    await expect.poll(() => alive(other.pid), { timeout: 5_000 }).toBe(false);
    const late = await rawRequest(other.url.href, { method: "POST", headers: pageHeaders(), body: "{}" });
    expect(late.body).toContain("closed (restarted)");
    const again = await startStdioBridge({ command: NODE, args: SLEEPER }, pageOptions("page-a"));
    expect(again.pid).toBe(fresh.pid);
    await Promise.all([again.close(), fresh.close()]);
  });

  it("a page never shares with itself, pages with different env get processes of their own, and a start with no page shares nothing", async () => {
    const one = await startStdioBridge({ command: NODE, args: SLEEPER, env: { TAG: "one" } }, pageOptions("page-a"));
    const sameAgain = await startStdioBridge({ command: NODE, args: SLEEPER, env: { TAG: "one" } }, pageOptions("page-a"));
    const otherEnv = await startStdioBridge({ command: NODE, args: SLEEPER, env: { TAG: "two" } }, pageOptions("page-b"));
    const noPage = await startStdioBridge({ command: NODE, args: SLEEPER, env: { TAG: "one" } }, bridgeOptions());
    const otherPage = await startStdioBridge({ command: NODE, args: SLEEPER, env: { TAG: "one" } }, pageOptions("page-b"));
    expect(new Set([one.pid, sameAgain.pid, otherEnv.pid, noPage.pid]).size).toBe(4);
    expect([one.pid, sameAgain.pid]).toContain(otherPage.pid);
    expect(registry.processes).toBe(4);
    await Promise.all([one, sameAgain, otherEnv, noPage, otherPage].map((bridge) => bridge.close()));
  });
});

describe("stdio bridge guard", () => {
  it("hands the token to nobody: a forged same-origin client gets no token and starts nothing (finding 1)", async () => {
    // The attack that worked before: a plain HTTP client (behind a same-host relay) sends the
    // headers a browser would, fetches the token, then starts a command that writes a file.
    const marker = path.join(tmp, "pwned.txt");
    const forged = { host: hostHeader, origin: host.url, "sec-fetch-site": "same-origin" };
    const token = await rawRequest(`${host.url}/api/mcp/stdio/token`, { headers: forged });
    expect([403, 404]).toContain(token.status);
    expect(token.body).not.toContain(TOKEN);
    const stolen = (() => {
      try {
        return (JSON.parse(token.body) as { token?: string }).token ?? "";
      } catch {
        return "";
      }
    })();
    const start = await rawRequest(`${host.url}/api/mcp/stdio`, {
      method: "POST",
      headers: { ...forged, "content-type": "application/json", [LOCAL_TOKEN_HEADER]: stolen },
      body: JSON.stringify({ command: NODE, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`] }),
    });
    expect(start.status).toBe(403);
    expect(start.body).toContain("the link that `npm start` printed");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(() => readFileSync(marker)).toThrow();
    expect(registry.size).toBe(0);
  });

  it("is off when the server was started without a token, and says where the token comes from", async () => {
    delete process.env[LOCAL_TOKEN_ENV];
    try {
      const response = await rawRequest(`${host.url}/api/mcp/stdio`, { method: "POST", headers: pageHeaders(), body: START_BODY });
      expect(response.status).toBe(403);
      expect(response.body).toContain("was not started with");
      expect(response.body).toContain("#cmp-token=");
    } finally {
      process.env[LOCAL_TOKEN_ENV] = TOKEN;
    }
  });

  it("refuses bridge requests without the token, with a wrong one, from a foreign origin or a non-loopback host", async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [pageHeaders({ [LOCAL_TOKEN_HEADER]: "" }), /has no local token/],
      [pageHeaders({ [LOCAL_TOKEN_HEADER]: "A".repeat(43) }), /not this server's/],
      [pageHeaders({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }), /https:\/\/evil\.example are refused/],
      [pageHeaders({ origin: `http://localhost:${new URL(host.url).port}` }), /only the playground's own page/],
      [pageHeaders({ host: `attacker.example:${new URL(host.url).port}` }), /does not answer to the host name "attacker\.example"/],
      [pageHeaders({ host: `127.0.0.1.nip.io:${new URL(host.url).port}` }), /DNS rebinding protection/],
      [pageHeaders({ "x-forwarded-for": "127.0.0.1, 203.0.113.9" }), /non-loopback client/],
      [pageHeaders({ forwarded: "for=198.51.100.7;proto=http" }), /non-loopback client/],
    ];
    const { [LOCAL_TOKEN_HEADER]: _token, ...withoutToken } = pageHeaders();
    cases.push([withoutToken, /has no local token/]);
    const { origin: _origin, "sec-fetch-site": _site, ...withoutOrigin } = pageHeaders();
    cases.push([withoutOrigin, /no Origin header/]);

    for (const [headers, reason] of cases) {
      const response = await rawRequest(`${host.url}/api/mcp/stdio`, { method: "POST", headers, body: START_BODY });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((JSON.parse(response.body) as { error: { message: string } }).error.message).toMatch(reason);
    }
    expect(registry.size).toBe(0);

    // A session's MCP endpoint (the SSE GET included) needs the token too.
    const bridge = await startStdioBridge({ command: NODE, args: SLEEPER }, bridgeOptions());
    const { [LOCAL_TOKEN_HEADER]: _t, ...anonymous } = pageHeaders({ accept: "text/event-stream" });
    const stream = await rawRequest(bridge.url.href, { headers: anonymous });
    expect(stream.status).toBe(403);
    const notUuid = await rawRequest(`${host.url}/api/mcp/stdio/not-a-session`, { method: "DELETE", headers: pageHeaders() });
    expect(notUuid.status).toBe(404);
    await bridge.close();
  });

  it("is off with CMP_DISABLE_STDIO=1", async () => {
    process.env.CMP_DISABLE_STDIO = "1";
    try {
      const response = await rawRequest(`${host.url}/api/mcp/stdio`, { method: "POST", headers: pageHeaders(), body: START_BODY });
      expect(response.status).toBe(403);
      expect(response.body).toContain("CMP_DISABLE_STDIO");
    } finally {
      delete process.env.CMP_DISABLE_STDIO;
    }
  });

  it("is off when the app listens on a non-loopback address at the request's port, nothing listens there, or CMP_MODE=hosted", async () => {
    const exposed = net.createServer();
    await new Promise<void>((resolve) => exposed.listen(0, "0.0.0.0", resolve));
    const port = (exposed.address() as AddressInfo).port;
    try {
      const request = (p: number) =>
        new Request(`http://localhost:${p}/api/mcp/stdio`, {
          method: "POST",
          body: START_BODY,
          headers: { host: `localhost:${p}`, origin: `http://localhost:${p}`, "content-type": "application/json", [LOCAL_TOKEN_HEADER]: TOKEN },
        });
      const response = await startRoute.POST(request(port), undefined);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("runs only when the playground runs on your own machine");
      const nobody = await startRoute.POST(request(1), undefined);
      expect(await nobody.text()).toContain("runs only when the playground runs on your own machine");
      process.env.CMP_MODE = "hosted";
      const hosted = await rawRequest(`${host.url}/api/mcp/stdio`, { method: "POST", headers: pageHeaders(), body: START_BODY });
      expect(hosted.status).toBe(403);
      expect(hosted.body).toContain("CMP_MODE=hosted");
    } finally {
      delete process.env.CMP_MODE;
      await new Promise((resolve) => exposed.close(resolve));
    }
  });

  it("decides by the listening addresses it is told about (pure check)", () => {
    const context = (addresses: string[] | undefined): LocalGuardContext => ({ disabled: false, token: TOKEN, env: {}, listenAddresses: () => addresses });
    const request = new Request("http://[::1]:3000/api/mcp/stdio", {
      method: "POST",
      headers: { host: "[::1]:3000", origin: "http://[::1]:3000", [LOCAL_TOKEN_HEADER]: TOKEN },
    });
    expect(checkLocalRequest(request, context(["::1"]))).toEqual({ ok: true });
    expect(checkLocalRequest(request, context(["127.0.0.1", "::"]))).toMatchObject({ ok: false });
    expect(checkLocalRequest(request, context(undefined))).toMatchObject({ ok: false });
    expect(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"].every(isLoopbackAddress)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.1", "localhost", "unknown"].some(isLoopbackAddress)).toBe(false);
  });
});

describe("stdio bridge failures", () => {
  it("reports a command that does not exist", async () => {
    const error = await startError({ command: "cmp-no-such-command-42", env: { API_KEY: SECRET } });
    expect(error).toMatchObject({ code: "start_failed:stdio", status: 502, causeKind: "command_not_found" });
    expect(error.message).toContain('Command not found: "cmp-no-such-command-42"');
  });

  it("reports a child that exits at once, with its stderr and without its env values", async () => {
    const script = "console.error('cannot start: API_KEY=' + process.env.API_KEY + ' rejected'); process.exit(3)";
    const error = await startError({ command: NODE, args: ["-e", script], env: { API_KEY: SECRET } });
    expect(error).toMatchObject({ code: "start_failed:stdio", causeKind: "exited" });
    expect(error.message).toMatch(/exited with exit code 3 right after starting/);
    expect(error.message).toContain("cannot start: API_KEY=[redacted] rejected");
    expect(error.message).not.toContain(SECRET);
  });

  it("fails waiting requests with the exit reason when the child dies mid-session; secrets stay out", async () => {
    const bridge = await startStdioBridge({ command: NODE, args: DIES_ON_FIRST_MESSAGE, env: { API_KEY: SECRET } }, bridgeOptions());
    const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(bridge.url, { fetch: asBrowser, requestInit: { headers: bridge.headers } });
    const failure = await client.connect(transport).then(
      () => "connected",
      (e: unknown) => String(e),
    );
    expect(failure).toMatch(/exited with exit code 7/);
    expect(failure).toContain("fatal: bad key [redacted]");
    expect(failure).not.toContain(SECRET);
    expect(alive(bridge.pid)).toBe(false);

    const late = await rawRequest(bridge.url.href, { method: "POST", headers: pageHeaders(), body: "{}" });
    // 404: to an MCP client the session is over (the page starts the server again); the message says why.
    expect(late.status).toBe(404);
    expect(JSON.parse(late.body)).toMatchObject({
      error: { code: "not_found:stdio", cause: "exited", message: expect.stringMatching(/exited with exit code 7/) as unknown },
    });
    expect(late.body).not.toContain(SECRET);
    await client.close();
  });

  it("rejects invalid bodies and missing directories without echoing values", async () => {
    const bad = await rawRequest(`${host.url}/api/mcp/stdio`, {
      method: "POST",
      headers: pageHeaders(),
      body: JSON.stringify({ command: NODE, env: { API_KEY: 42, "BAD NAME": SECRET } }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: "bad_request:stdio" } });
    expect(bad.body).not.toContain(SECRET);

    const cwd = await startError({ command: NODE, args: SLEEPER, env: { API_KEY: SECRET }, cwd: path.join(tmp, "missing") });
    expect(cwd).toMatchObject({ code: "start_failed:stdio", causeKind: "cwd_not_found" });
  });
});

describe("stdio bridge lifecycle", () => {
  it("caps concurrent children", async () => {
    registry.configure({ maxSessions: 1 });
    const first = await startStdioBridge({ command: NODE, args: SLEEPER }, bridgeOptions());
    const error = await startError({ command: NODE, args: sleeper(2) });
    expect(error).toMatchObject({ code: "too_many:stdio", status: 429 });
    expect(error.message).toContain("1 run now for 1 page (tabs share a server's process)");
    await first.close();
    // The cap counts processes: another page's session on the same one still starts.
    const mine = await startStdioBridge({ command: NODE, args: SLEEPER }, pageOptions("page-a"));
    const theirs = await startStdioBridge({ command: NODE, args: SLEEPER }, pageOptions("page-b"));
    expect(theirs.pid).toBe(mine.pid);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it("ends idle sessions and kills their child", async () => {
    registry.configure({ idleMs: 200 });
    const bridge = await startStdioBridge({ command: NODE, args: SLEEPER }, bridgeOptions());
    await expect.poll(() => alive(bridge.pid), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => registry.get(bridge.session), { timeout: 1_000 }).toBeUndefined();
    const late = await rawRequest(bridge.url.href, { method: "POST", headers: pageHeaders(), body: "{}" });
    expect(late.body).toContain("closed (idle)");
  });

  it("a page's servers end when its channel closes, unless a request from the page's new channel adopts them within the grace", async () => {
    registry.configure({ orphanGraceMs: 200, lingerMs: 100 });
    const orphan = await registry.start({ command: NODE, args: sleeper(1), env: {} }, "channel-a");
    const adopted = await registry.start({ command: NODE, args: sleeper(2), env: {} }, "channel-a");
    const otherPage = await registry.start({ command: NODE, args: sleeper(3), env: {} }, "channel-b");
    const plainHttp = await registry.start({ command: NODE, args: sleeper(4), env: {} });
    registry.release("channel-a");
    // The page reconnected and used one of its servers through its new channel.
    await rawRequest(`${host.url}/api/mcp/stdio/${adopted.session}?stderr=1`, { headers: pageHeaders({ "x-cmp-channel": "channel-c" }) });
    await expect.poll(() => alive(orphan.pid), { timeout: 5_000 }).toBe(false);
    const late = await rawRequest(`${host.url}/api/mcp/stdio/${orphan.session}`, { method: "POST", headers: pageHeaders(), body: "{}" });
    expect(late.body).toContain("closed (page closed)");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([adopted.pid, otherPage.pid, plainHttp.pid].map(alive)).toEqual([true, true, true]);
  });

  it("a page that says it is gone (closed, reloaded): its next load takes its servers' processes over at once; one nobody takes stops after the linger; other pages' are left alone", async () => {
    registry.configure({ orphanGraceMs: 60_000, maxSessions: 3, lingerMs: 400 });
    const kept = await registry.start({ command: NODE, args: sleeper(1), env: {} }, "channel-gone");
    const dropped = await registry.start({ command: NODE, args: sleeper(2), env: {} }, "channel-gone");
    const other = await registry.start({ command: NODE, args: sleeper(3), env: {} }, "channel-kept");
    expect(await startError({ command: NODE, args: sleeper(4) })).toMatchObject({ code: "too_many:stdio" });
    registry.release("channel-gone", { now: true });
    // Its sessions end at once; the reloaded page starts the first server again and gets the same process.
    await expect.poll(() => registry.get(kept.session), { timeout: 1_000 }).toBeUndefined();
    const again = await registry.start({ command: NODE, args: sleeper(1), env: {} }, "channel-new");
    expect(again.pid).toBe(kept.pid);
    // The other server was not started again: its process stops once the linger is over, and its slot is free.
    await expect.poll(() => alive(dropped.pid), { timeout: 5_000 }).toBe(false);
    const fresh = await registry.start({ command: NODE, args: sleeper(4), env: {} }, "channel-new");
    expect([alive(again.pid), alive(other.pid), alive(fresh.pid)]).toEqual([true, true, true]);
    await Promise.all([registry.close(other.session), registry.close(again.session), registry.close(fresh.session)]);
    expect([kept.pid, other.pid, fresh.pid].map(alive)).toEqual([false, false, false]);
  });

  it("kills every child at once on process exit (the exit hook)", async () => {
    const bridges = await Promise.all([0, 1].map(() => startStdioBridge({ command: NODE, args: SLEEPER }, bridgeOptions())));
    registry.killAllNow();
    for (const bridge of bridges) await expect.poll(() => alive(bridge.pid), { timeout: 5_000 }).toBe(false);
  });
});
