import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import { CallsInFlight, ServerRequestBroker } from "@/lib/mcp/server-requests";
import type { ServerRequestNote } from "@/lib/mcp/server-requests";
import type { ServerConfig } from "@/lib/mcp/types";
import { askingServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

function connectWith(broker: ServerRequestBroker, inFlight: CallsInFlight) {
  const config: ServerConfig = { id: "asker", name: "asker", transport: "streamable-http", url: host.url, enabled: true };
  return connectToServer(config, {
    baseUrl: new URL(host.url).origin,
    proxyUrl: "/api/mcp/proxy",
    via: "direct",
    elicit: (c, params, signal) => broker.elicit(c.name, params, signal, inFlight.latest(c.name)),
  });
}

describe("elicitation, from the server's request to the person's answer", () => {
  it("shows the request beside the call, pauses its clock, and returns the answer with the schema's defaults applied", async () => {
    const broker = new ServerRequestBroker();
    const inFlight = new CallsInFlight();
    const connection = await connectWith(broker, inFlight);
    const notes: ServerRequestNote[] = [];
    let suspended = 0;
    let resumed = 0;
    const end = inFlight.begin("asker", {
      callId: 7,
      suspendClock: () => {
        suspended++;
        return () => void resumed++;
      },
      note: (note) => notes.push(note),
    });
    const calling = connection.callTool("book_table", { restaurant: "Trattoria" });
    await expect.poll(() => broker.snapshot().length).toBe(1);
    const [pending] = broker.snapshot();
    expect(pending).toMatchObject({ serverName: "asker", callId: 7, mode: "form", message: "Who is the table at Trattoria for?" });
    expect([suspended, resumed]).toEqual([1, 0]);
    // The person fills only the name: seats and terrace come from the schema's defaults.
    broker.answer(pending?.id ?? 0, { action: "accept", content: { name: "Ada" } });
    const result = await calling;
    end();
    await connection.close();
    expect(result.structuredContent).toEqual({ action: "accept", content: { name: "Ada", seats: 2, terrace: false } });
    expect([suspended, resumed]).toEqual([1, 1]);
    expect(notes.map((n) => n.state)).toEqual(["waiting", "accept"]);
    expect(broker.snapshot()).toEqual([]);
  });

  it("decline and cancel reach the server as such", async () => {
    const broker = new ServerRequestBroker();
    const connection = await connectWith(broker, new CallsInFlight());
    for (const action of ["decline", "cancel"] as const) {
      const calling = connection.callTool("book_table", {});
      await expect.poll(() => broker.snapshot().length).toBe(1);
      broker.answer(broker.snapshot()[0]?.id ?? 0, { action });
      expect((await calling).structuredContent).toEqual({ action, content: null });
    }
    await connection.close();
  });

  it("a call that is aborted cancels its open prompt", async () => {
    const broker = new ServerRequestBroker();
    const inFlight = new CallsInFlight();
    const connection = await connectWith(broker, inFlight);
    const controller = new AbortController();
    const notes: ServerRequestNote[] = [];
    const end = inFlight.begin("asker", { callId: 1, signal: controller.signal, note: (note) => notes.push(note) });
    const calling = connection.callTool("book_table", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => broker.snapshot().length).toBe(1);
    controller.abort(new Error("stopped by the person"));
    expect(((await calling) as Error).message).toBe("stopped by the person");
    end();
    // The run gave up on the call: its prompt closes as cancelled.
    expect(broker.snapshot()).toEqual([]);
    expect(notes.map((n) => n.state)).toEqual(["waiting", "cancel"]);
    await connection.close();
  });

  it("a schema that is not flat is refused before the person sees it", async () => {
    const broker = new ServerRequestBroker();
    const connection = await connectWith(broker, new CallsInFlight());
    const result = await connection.callTool("nested_form", {});
    await connection.close();
    expect(result.isError).toBe(true);
    // The SDK's client validates the request against the spec's flat schema and answers the server with an error.
    expect((result.content[0] as { text: string }).text).toMatch(/^refused: MCP error -\d+:[\s\S]*Invalid input/);
    expect(broker.snapshot()).toEqual([]);
  });

  it("URL mode: only https (or loopback) pages are offered", () => {
    const broker = new ServerRequestBroker();
    const signal = new AbortController().signal;
    return expect(broker.elicit("s", { mode: "url", message: "Go", url: "http://evil.example/x", elicitationId: "1" }, signal, undefined)).rejects.toThrow(
      /not an https URL/,
    );
  });
});
