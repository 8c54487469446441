import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingToolNames, startEverythingHttp } from "../../fixtures/mcp/everything";
import type { EverythingHttp } from "../../fixtures/mcp/everything";

// Several tools are registered only for clients that declare these capabilities, so declaring
// them all makes the whole catalogue visible (no handlers: no test calls those tools).
const ALL_CAPABILITIES = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
};

let server: EverythingHttp;
let client: Client;

beforeAll(async () => {
  server = await startEverythingHttp();
  client = new Client({ name: "third-party-test", version: "1.0.0" }, { capabilities: ALL_CAPABILITIES });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
}, 20_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("@modelcontextprotocol/server-everything over Streamable HTTP", () => {
  it("lists every tool its source registers", async () => {
    const expected = everythingToolNames();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content", "get-tiny-image"]));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(expected);
  });

  it("echoes, adds and returns an image", async () => {
    const echo = await client.callTool({ name: "echo", arguments: { message: "hello" } });
    expect(echo.content).toEqual([{ type: "text", text: "Echo: hello" }]);
    const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    expect(sum.content).toEqual([{ type: "text", text: "The sum of 2 and 40 is 42." }]);
    const image = await client.callTool({ name: "get-tiny-image", arguments: {} });
    expect(image.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image", mimeType: "image/png" })]));
  });

  it("returns structured content matching the declared output schema", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "get-structured-content");
    expect(tool?.outputSchema?.properties).toHaveProperty("temperature");
    const result = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
    expect(result.structuredContent).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
  });

  it("streams progress notifications for a long-running call", async () => {
    const progress: number[] = [];
    const result = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([1, 2, 3]);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("completed") as string }]);
  });
});
