/** Shared pieces of the code-mode MCP server tests: a config over real servers, and SDK clients. */
import { createRequire } from "node:module";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { startLoopbackServer, type LoopbackServer } from "@/lib/http/node/loopback-server";
import { openCodeModeServer, readCodeModeConfig, type OpenedCodeModeServer } from "@/lib/codemode-mcp/node/open";
import { CodeModeHttpEndpoint, type HttpEndpointOptions } from "@/lib/codemode-mcp/node/http-endpoint";
import { createCodeModeMcpServer } from "@/lib/codemode-mcp/mcp-server";
import type { ModernRuns } from "@/lib/codemode-mcp/modern-runs";
import type { CodeModeService } from "@/lib/codemode-mcp/service";
import type { FeedUpdate, RunFeed } from "@/lib/codemode-mcp/run-feed";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const require = createRequire(import.meta.url);
const pkg = require.resolve("@modelcontextprotocol/server-memory/package.json");
export const MEMORY_BIN = path.join(path.dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");

/** An mcp.json with the reference memory server (stdio) and the lab and store demo servers (HTTP) at `demoUrl`. */
/** A header and an env value the config carries, which must never reach a program, a result or a record. */
export const CONFIG_SECRET = "sk-live-codemode-secret-0123456789abcdef";

export function writeConfig(demoUrlFor: (name: string) => string, codeMode: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-codemode-"));
  const file = path.join(dir, "mcp.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        memory: { command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl"), API_KEY: CONFIG_SECRET } },
        lab: { type: "http", url: demoUrlFor("lab"), headers: { authorization: `Bearer ${CONFIG_SECRET}` } },
        store: { type: "http", url: demoUrlFor("store") },
      },
      codeMode,
    }),
  );
  return file;
}

/** What the client answers when the server asks about a destructive call. */
export interface Asker {
  /** `defaults`: accept the form as the server sent it, each property at its default, as some clients do without a person. */
  answer: "accept" | "decline" | "defaults";
  asked: string[];
}

/** A client that can answer elicitation (or not, with `elicitation: false`). */
export function newClient(name: string, asker?: Asker): Client {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: asker ? { elicitation: { form: {} } } : {} });
  if (asker) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asker.asked.push(String(request.params.message));
      if (asker.answer === "decline") return { action: "decline" };
      if (asker.answer === "accept") return { action: "accept", content: { approve: true } };
      const schema = (request.params as { requestedSchema?: { properties?: Record<string, { default?: unknown }> } }).requestedSchema;
      const content = Object.fromEntries(Object.entries(schema?.properties ?? {}).flatMap(([key, prop]) => ("default" in prop ? [[key, prop.default]] : [])));
      return { action: "accept", content };
    });
  }
  return client;
}

/** The text of a tool result. */
export function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Calls execute_code. */
export function execute(client: Client, code: string, data?: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name: "execute_code", arguments: data ? { code, data } : { code } }) as Promise<CallToolResult>;
}

/** A program that calls the stdio server and an HTTP demo server in parallel. */
export const PARALLEL_PROGRAM = `const [, echoed] = await Promise.all([
  memory.create_entities({ entities: [{ name: who, entityType: "person", observations: ["test"] }] }),
  lab.echo({ message: "hello " + who }),
]);
const graph = await memory.read_graph({});
console.log("entities", graph.entities.length);
return { names: graph.entities.map((e) => e.name), echo: echoed.message };`;

/** The bearer token the harness's endpoints take. */
export const HARNESS_TOKEN = "test-token-0123456789abcdef0123456789";

/**
 * One test file's code-mode servers on loopback: the demo servers started before the file, each
 * `serve` a config over them hosted as the HTTP endpoint, each `connect` an SDK client; all of
 * it closed after the file.
 */
export function codeModeHarness() {
  let demo: Awaited<ReturnType<typeof startDemoHost>> | undefined;
  const opened: OpenedCodeModeServer[] = [];
  const hosts: LoopbackServer[] = [];
  const clients: Client[] = [];
  beforeAll(async () => {
    demo = await startDemoHost();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(hosts.map((h) => h.close()));
    await Promise.all(opened.map((o) => o.close()));
    await demo?.close();
  });
  const started = () => {
    if (!demo) throw new Error("the demo servers start in beforeAll");
    return demo;
  };
  return {
    demo: started,
    /** Opens a server over `codeMode` options and hosts its endpoint. */
    serve: async (
      codeMode: Record<string, unknown>,
      options: { feed?: RunFeed; endpoint?: Partial<HttpEndpointOptions>; runs?: (service: CodeModeService) => ModernRuns } = {},
    ) => {
      const host0 = started();
      const config = await readCodeModeConfig(writeConfig((name) => host0.urlFor(name), codeMode));
      const feed = options.feed;
      const server = await openCodeModeServer(config, { baseUrl: host0.url, ...(feed ? { publish: (u: FeedUpdate) => feed.publish(u) } : {}) });
      opened.push(server);
      const runs = options.runs?.(server.service);
      const endpoint = new CodeModeHttpEndpoint({ token: HARNESS_TOKEN, newServer: () => createCodeModeMcpServer(server.service, runs), ...options.endpoint });
      const host = await startLoopbackServer((request) => endpoint.handle(request));
      hosts.push(host);
      return { url: `${host.url}/api/codemode/mcp`, endpoint, server };
    },
    /** An SDK client connected to `url` with `token`. */
    connect: async (url: string, name: string, token = HARNESS_TOKEN): Promise<Client> => {
      const client = newClient(name);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return client;
    },
  };
}

/** The command an agent starts (`bin/code-mode-playground.mjs`). */
export const BIN = path.resolve("bin/code-mode-playground.mjs");

/** Connects a client to the real command over stdio; `stderr()` is what it has written there so far. */
export async function connectCommand(client: Client, args: readonly string[]): Promise<{ stderr: () => string }> {
  let stderr = "";
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { stderr: () => stderr };
}

/** What a 2026-07-28 request answered: its HTTP status and JSON-RPC message. */
export interface ModernAnswer {
  status: number;
  json: { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/**
 * POSTs one 2026-07-28 request to the endpoint as a client puts it on the wire: the operator's
 * token, the routing headers from the body (`Mcp-Method`, and `Mcp-Name` when given), the answer
 * read from one JSON body or an event stream.
 */
export async function postModern(url: string, request: { method: string; params: Record<string, unknown> }, mcpName?: string): Promise<ModernAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${HARNESS_TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": request.method,
      ...(mcpName === undefined ? {} : { "mcp-name": mcpName }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...request }),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return { status: response.status, json: JSON.parse(data) as ModernAnswer["json"] };
}
