/**
 * The code-mode MCP server as an agent meets it: the real command (`bin/code-mode-playground.mjs
 * mcp --config …`) started by the SDK's stdio client, serving the reference memory server (stdio)
 * and the lab and store demo servers (HTTP on loopback).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { connectCommand, execute, newClient, PARALLEL_PROGRAM, textOf, writeConfig, type Asker } from "./fixtures";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let client: Client;
const asker: Asker = { answer: "accept", asked: [] };
let command: { stderr: () => string };

beforeAll(async () => {
  demo = await startDemoHost();
  const config = writeConfig((name) => demo.urlFor(name), { destructive: { store: "ask" } });
  client = newClient("stdio-test-agent", asker);
  command = await connectCommand(client, ["mcp", "--config", config]);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await demo?.close();
});

describe("code-mode MCP server over stdio", () => {
  it("offers execute_code, with the typed API of every server in its description, and search_tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["execute_code", "search_tools"]);
    const description = tools[0]?.description ?? "";
    expect(description).toContain("declare namespace memory");
    expect(description).toContain("declare namespace lab");
    expect(description).toContain("declare namespace store");
    expect(tools[0]?.inputSchema.properties).toHaveProperty("data");
    expect(command.stderr()).toContain("serving memory, lab, store");
  });

  it("a program calls the stdio server and an HTTP server in parallel and returns the combined value; data keys are globals", async () => {
    const result = await execute(client, PARALLEL_PROGRAM, { who: "Ada" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      value: { names: ["Ada"], echo: "hello Ada" },
      logs: ["entities 1"],
      calls: { total: 3, failed: 0, tools: { "memory.create_entities": 1, "memory.read_graph": 1, "lab.echo": 1 } },
    });
    expect(JSON.parse(textOf(result))).toMatchObject({ value: { echo: "hello Ada" } });
  });

  it("data globals are read-only", async () => {
    const result = await execute(client, `"use strict"; try { limit = 5; } catch (e) { return "kept " + limit; } return "changed";`, { limit: 3 });
    expect(result.structuredContent).toMatchObject({ value: "kept 3" });
  });

  it("a syntax error comes back as isError naming its kind and line", async () => {
    const result = await execute(client, "const x = ;\nreturn x;");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^syntax error \(line 1/);
  });

  it("a tool error comes back as isError with kind tool, the server's message and the console so far", async () => {
    const result = await execute(client, `console.log("before"); await lab.fail({ message: "the warehouse is on fire" }); return 1;`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^tool error.*the warehouse is on fire/);
    expect(textOf(result)).toContain("before");
  });

  it("a missing program is an input error, not a crash", async () => {
    const result = await client.callTool({ name: "execute_code", arguments: { data: {} } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^input error/);
  });

  it("policy ask: the client is asked through elicitation; yes sends the call, no denies it", async () => {
    const program = `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;
    asker.answer = "accept";
    const yes = await execute(client, program);
    expect(asker.asked.at(-1)).toContain("store.place_order");
    // The call reached the store, which knows no such cart.
    expect(String(yes.structuredContent?.value)).toContain("cart-nope");
    expect(yes.structuredContent).toMatchObject({ calls: { total: 1, failed: 1 } });

    asker.answer = "decline";
    const no = await execute(client, program);
    expect(asker.asked).toHaveLength(2);
    expect(no.structuredContent).toMatchObject({ value: "error: denied by the person" });
  });

  it("policy ask: a form accepted with its defaults, untouched by a person, denies the call", async () => {
    const program = `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;
    asker.answer = "defaults";
    const result = await execute(client, program);
    expect(asker.asked.at(-1)).toContain("store.place_order");
    expect(result.structuredContent).toMatchObject({ value: "error: denied by the person", calls: { total: 1 } });
  });

  it("search_tools returns the declarations of matching functions", async () => {
    const result = await client.callTool({ name: "search_tools", arguments: { query: "knowledge graph entities" } });
    expect(textOf(result)).toContain("create_entities");
    const bad = await client.callTool({ name: "search_tools", arguments: { query: "" } });
    expect(bad.isError).toBe(true);
  });
});
