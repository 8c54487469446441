import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDeclarations } from "@/lib/codemode/declarations";
import { connectToServer } from "@/lib/mcp/connection";
import type { McpConnection } from "@/lib/mcp/connection";
import { demoServerPath } from "@/lib/demo-servers/catalog";
import { buildHostFunctions } from "@/lib/host-calls/mcp-tools";
import type { HostCallReport, HostServer } from "@/lib/host-calls/mcp-tools";
import { ToolError } from "@/lib/mcp/unwrap";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { liarServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let liar: StatefulHost;
const connections: McpConnection[] = [];
const servers: HostServer[] = [];

async function serve(name: string, url: string): Promise<HostServer> {
  const connection = await connectToServer(
    { id: name, name, transport: "streamable-http", url, headers: {}, enabled: true },
    { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" },
  );
  connections.push(connection);
  return { name, connection, tools: await connection.listTools() };
}

beforeAll(async () => {
  [demo, liar] = await Promise.all([startDemoHost(), startMcpHttpServer(liarServer)]);
  servers.push(await serve("shipping", demoServerPath("shipping")), await serve("lab", demoServerPath("lab")), await serve("liar-server", `${liar.url}/mcp`));
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await Promise.all([demo.close(), liar.close()]);
});

const signal = new AbortController().signal;

function recorder() {
  const infos: Array<{ callId: number; info: HostCallReport }> = [];
  return { infos, hooks: { onCallInfo: (callId: number, info: HostCallReport) => void infos.push({ callId, info }) } };
}

function fn(host: ReturnType<typeof buildHostFunctions>["host"], namespace: string, name: string) {
  const f = host[namespace]?.[name];
  if (!f) throw new Error(`no host function ${namespace}.${name}`);
  return f;
}

describe("buildHostFunctions against the demo servers", () => {
  it("calls a tool and returns its structuredContent, reporting size and a clean output check", async () => {
    const { infos, hooks } = recorder();
    const { host } = buildHostFunctions(servers, hooks);
    const value = await fn(host, "shipping", "get_quote")({ carrier: "postal", origin: "DE", destination: "US", weightKg: 2 }, signal, { callId: 7 });
    expect(value).toMatchObject({ carrier: "postal", origin: "DE", destination: "US" });
    expect(infos).toHaveLength(1);
    const { callId, info } = infos[0]!;
    expect(callId).toBe(7);
    expect(info).toMatchObject({ server: "shipping", tool: "get_quote", outputFindings: [] });
    expect(info.resultBytes).toBe(new TextEncoder().encode(JSON.stringify(info.result)).length);
    expect(info.resultBytes).toBeGreaterThan(50);
  });

  it("rejects bad arguments before calling, with the validation message", async () => {
    const { infos, hooks } = recorder();
    const calls: string[] = [];
    const spy: HostServer = { ...servers[0]!, connection: { callTool: (name) => (calls.push(name), Promise.reject(new Error("must not be called"))) } };
    const { host } = buildHostFunctions([spy], hooks);
    const call = fn(host, "shipping", "get_quote")({ carrier: "pigeon", origin: "DE", destination: "US", weightKg: "2" }, signal, { callId: 1 });
    await expect(call).rejects.toThrow(/^Invalid arguments: arguments\.carrier must be one of .*arguments\.weightKg must be number/);
    expect(calls).toEqual([]);
    expect(infos[0]?.info.validation).toMatch(/^Invalid arguments: arguments\.carrier/);
    await expect(fn(host, "shipping", "get_quote")("DE", signal, { callId: 2 })).rejects.toThrow(/takes one object argument, not string/);
  });

  it("throws the server's message for isError results", async () => {
    const { infos, hooks } = recorder();
    const { host } = buildHostFunctions(servers, hooks);
    const call = fn(host, "lab", "fail")({ message: "the warehouse is on fire" }, signal, { callId: 3 });
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(fn(host, "lab", "fail")({ message: "the warehouse is on fire" }, signal, { callId: 4 })).rejects.toThrow("the warehouse is on fire");
    expect(infos[0]?.info).toMatchObject({ tool: "fail", isError: true });
    expect(infos[0]?.info.outputFindings).toBeUndefined();
  });

  it("flags a structuredContent that does not match outputSchema, and still returns it", async () => {
    const { infos, hooks } = recorder();
    const { host, namespaces } = buildHostFunctions(servers, hooks);
    expect(namespaces.find((n) => n.server === "liar-server")?.namespace).toBe("liar_server");
    const value = await fn(host, "liar_server", "add")({ a: 1, b: 2 }, signal, { callId: 5 });
    expect(value).toEqual({ sum: "three" });
    expect(infos[0]?.info.outputFindings).toEqual([{ kind: "mismatch", path: "structuredContent.sum", message: "must be number" }]);
  });

  it("passes the run's AbortSignal to the call", async () => {
    const { host } = buildHostFunctions(servers);
    const aborter = new AbortController();
    const call = fn(host, "lab", "sleep")({ ms: 2_000 }, aborter.signal, { callId: 6 });
    setTimeout(() => aborter.abort(new Error("run cancelled")), 50);
    await expect(call).rejects.toThrow("run cancelled");
  });

  it("reports progress through the hook", async () => {
    const progress: number[] = [];
    const { host } = buildHostFunctions(servers, { onProgress: (callId, p) => progress.push(callId * 100 + p.progress) });
    await fn(host, "lab", "sleep")({ ms: 200 }, signal, { callId: 9 });
    expect(progress).toEqual([901, 902]);
  });
});

describe("buildHostFunctions names", () => {
  const tool = (name: string): Tool => ({ name, inputSchema: { type: "object" } });
  const fake = (record: string[]): HostServer["connection"] => ({
    callTool: (name) => {
      record.push(name);
      return Promise.resolve({ content: [{ type: "text", text: "42" }] } as CallToolResult);
    },
  });

  it("uses exactly the names the declarations generator gives, collisions included", async () => {
    const called: string[] = [];
    const input: HostServer[] = [
      { name: "my-server", connection: fake(called), tools: [tool("get-item"), tool("get_item"), tool("delete"), tool("__proto__")] },
      { name: "my server", connection: fake(called), tools: [tool("list.all")] },
      { name: "JSON", connection: fake(called), tools: [tool("parse")] },
      ...servers,
    ];
    const { host, namespaces } = buildHostFunctions(input);
    const declared = generateDeclarations(input.map((s) => ({ name: s.name, tools: s.tools })));
    const fromDeclarations = declared.names.map((n) => `${n.kind}:${n.server}:${n.original}->${n.sanitised}`).sort();
    const fromHost = namespaces
      .flatMap((n) => [`server:${n.server}:${n.server}->${n.namespace}`, ...n.tools.map((t) => `tool:${n.server}:${t.tool}->${t.fn}`)])
      .sort();
    expect(fromHost).toEqual(fromDeclarations);
    expect(Object.keys(host).sort()).toEqual(declared.namespaces.map((n) => n.namespace).sort());
    expect(namespaces[0]).toEqual({
      server: "my-server",
      // "my server" sorts first (space before dash), so it keeps the plain identifier.
      namespace: "my_server_2",
      tools: [
        { tool: "get-item", fn: "get_item_2" },
        { tool: "get_item", fn: "get_item" },
        { tool: "delete", fn: "delete_" },
        // The object protocol's names get a trailing _ (PROTOCOL_NAMES), as reserved words do.
        { tool: "__proto__", fn: "__proto___" },
      ],
    });
    expect(Object.getPrototypeOf(host.my_server_2)).toBe(Object.prototype);
    expect(await fn(host, "my_server_2", "__proto___")({}, signal, { callId: 1 })).toBe(42);
    expect(await fn(host, "my_server", "list_all")(undefined, signal, { callId: 2 })).toBe(42);
    expect(called).toEqual(["__proto__", "list.all"]);
  });
});
