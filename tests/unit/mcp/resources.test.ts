import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import { buildHostFunctions } from "@/lib/host-calls/mcp-tools";
import { RESOURCE_READER_NAME, withResourceReader } from "@/lib/mcp/resource-reader";
import type { ServerConfig } from "@/lib/mcp/types";
import { adderServer, askingServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

const config = (url: string): ServerConfig => ({ id: "asker", name: "asker", transport: "streamable-http", url, enabled: true });
const options = (url: string) => ({ baseUrl: new URL(url).origin, proxyUrl: "/api/mcp/proxy", via: "direct" as const });

describe("resources and prompts", () => {
  it("lists, reads, fills a template, subscribes to updates and gets a prompt", async () => {
    const connection = await connectToServer(config(host.url), options(host.url));
    expect((await connection.listResources()).map((r) => r.uri)).toEqual(["memo://note"]);
    expect((await connection.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["memo://day/{date}"]);
    expect((await connection.readResource("memo://note")).contents).toEqual([{ uri: "memo://note", mimeType: "text/plain", text: "first draft" }]);
    expect((await connection.readResource("memo://day/2026-11-24")).contents[0]).toMatchObject({ text: "memo for 2026-11-24" });
    let updates = 0;
    const stop = await connection.subscribeResource("memo://note", () => updates++);
    await connection.callTool("update_note", { text: "second draft" });
    await expect.poll(() => updates).toBe(1);
    await stop();
    await connection.callTool("update_note", { text: "third draft" });
    expect(updates).toBe(1);
    const prompt = await connection.getPrompt("greet", { who: "Ada" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada." } }]);
    await connection.close();
  });

  it("code reads resources as `$readResource({ uri })` through the same host functions (validated, reported)", async () => {
    const connection = await connectToServer(config(host.url), options(host.url));
    const tools = withResourceReader(await connection.listTools(), connection.capabilities);
    expect(tools.at(-1)?.name).toBe(RESOURCE_READER_NAME);
    const reports: unknown[] = [];
    const { host: fns } = buildHostFunctions([{ name: "asker", connection, tools }], { onCallInfo: (_id, info) => reports.push(info) });
    const read = fns.asker?.[RESOURCE_READER_NAME];
    if (!read) throw new Error("no reader");
    const call = { callId: 1 };
    expect(await read({ uri: "memo://day/monday" }, new AbortController().signal, call)).toEqual({
      contents: [{ uri: "memo://day/monday", text: "memo for monday" }],
    });
    expect(reports[0]).toMatchObject({ server: "asker", tool: RESOURCE_READER_NAME });
    await expect(read({}, new AbortController().signal, { callId: 2 })).rejects.toThrow(/uri/);
    await connection.close();
  });

  it("a server without resources gets no reader; one with its own $readResource tool keeps it", async () => {
    const plain = await startMcpHttpServer(() => adderServer());
    const connection = await connectToServer(config(plain.url), options(plain.url));
    const tools = await connection.listTools();
    expect(withResourceReader(tools, connection.capabilities)).toBe(tools);
    const own = [{ name: RESOURCE_READER_NAME, inputSchema: { type: "object" as const } }];
    expect(withResourceReader(own, { resources: {} })).toBe(own);
    await connection.close();
    await plain.close();
  });
});

describe("cancellation", () => {
  it("aborting a call sends notifications/cancelled: the server stops waiting", async () => {
    const connection = await connectToServer(config(host.url), options(host.url));
    const controller = new AbortController();
    const calling = connection.callTool("wait_for_cancel", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error("the run was stopped"));
    expect(((await calling) as Error).message).toBe("the run was stopped");
    await expect.poll(async () => (await connection.callTool("cancelled_count", {})).structuredContent).toEqual({ cancelled: 1 });
    await connection.close();
  });
});
