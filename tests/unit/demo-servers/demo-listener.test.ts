/**
 * The demo servers' direct path in the production server (lib/demo-servers/node/demo-listener.ts), driven
 * as an attacker would: plain HTTP over a real socket, headers forged at will. It must answer
 * exactly what the Next route answers (same guard, same handler, next.config.js's headers) and
 * leave every other path to Next.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { demoRequestListener } from "@/lib/demo-servers/node/demo-listener";

const HEADERS = { "x-content-type-options": "nosniff", "x-frame-options": "DENY" };
let server: http.Server;
let base = "";
/** Paths the listener left alone, as Next's handler would have received them. */
const passedOn: string[] = [];

beforeAll(async () => {
  const env = () => ({ CMP_ALLOWED_HOSTS: "playground.example" });
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const demo = demoRequestListener({ base, headers: HEADERS, env });
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (demo(req, res)) return;
    passedOn.push(req.url ?? "");
    res.writeHead(404, { "content-type": "text/plain" }).end("next");
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One raw request; `host` is sent as given (fetch would not let us forge it). */
function send(method: string, path: string, options: { host?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const url = new URL(path, base);
    const request = http.request(
      { method, host: url.hostname, port: url.port, path, headers: { ...(options.host ? { host: options.host } : {}), ...options.headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Declares a 2 MB body, sends 10 bytes of it, and returns the status the server answers with before reading more. */
function oversized(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const url = new URL("/api/demo-mcp/lab", base);
    const request = http.request(
      { method: "POST", host: url.hostname, port: url.port, path: url.pathname, headers: { ...MCP, "content-length": 2_000_000 } },
      (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      },
    );
    request.on("error", reject);
    request.write('"xxxxxxxxx');
  });
}

const ECHO = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "m" } } });
const MCP = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("demo servers answered ahead of Next's router", () => {
  it("answers a call with the handler's answer, CORS and the configured headers", async () => {
    const response = await send("POST", "/api/demo-mcp/lab", { headers: MCP, body: ECHO });
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ ...HEADERS, "access-control-allow-origin": "*", "content-type": "application/json" });
    expect(JSON.parse(response.text)).toMatchObject({ id: 1, result: { structuredContent: { message: "m" } } });
  });

  it("serves a real MCP client, streaming included (lab.sleep answers as an event stream with progress)", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/demo-mcp/lab`)));
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: "sleep", arguments: { ms: 30 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
      expect(result.isError).toBeFalsy();
      expect(progress.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("refuses a forged Host (DNS rebinding) before any server runs, and accepts an allowed one", async () => {
    const forged = await send("POST", "/api/demo-mcp/lab", { host: "evil.example", headers: { ...MCP, origin: "http://evil.example" }, body: ECHO });
    expect(forged.status).toBe(403);
    expect(forged.headers).toMatchObject(HEADERS);
    expect(JSON.parse(forged.text)).toMatchObject({ error: { code: "refused:demo_mcp", cause: "host" } });
    const allowed = await send("POST", "/api/demo-mcp/lab", { host: "playground.example", headers: MCP, body: ECHO });
    expect(allowed.status).toBe(200);
  });

  it("answers an unknown server, a wrong method and an oversized body with the route's own errors", async () => {
    const unknown = await send("POST", "/api/demo-mcp/nope", { headers: MCP, body: ECHO });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("Available: shipping");
    expect((await send("GET", "/api/demo-mcp/lab")).status).toBe(405);
    expect(await oversized()).toBe(413);
    const preflight = await send("OPTIONS", "/api/demo-mcp/lab", { headers: { origin: "https://elsewhere.example" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-headers"]).toContain("mcp-protocol-version");
  });

  it("leaves every other path to Next: other routes, query strings, nested paths and broken escapes", async () => {
    passedOn.length = 0;
    for (const path of [
      "/",
      "/api/demo-mcp",
      "/api/demo-mcp/lab?x=1",
      "/api/demo-mcp/lab/extra",
      "/api/demo-mcp/%E0%A4%A",
      "/api/mcp/proxy",
      "/api/demo-mcp-lab",
    ]) {
      const response = await send("POST", path, { headers: MCP, body: ECHO });
      expect(response.text, path).toBe("next");
    }
    expect(passedOn).toHaveLength(7);
  });
});
