/** Shared pieces of the code-mode MCP server tests: a config over real servers, and SDK clients. */
import { createRequire } from "node:module";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
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
