import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer } from "@/lib/mcp/connection";
import { CallsInFlight, ServerRequestBroker, withNote } from "@/lib/mcp/server-requests";
import type { ServerRequestNote } from "@/lib/mcp/server-requests";
import type { ServerConfig } from "@/lib/mcp/types";
import type { UIMessageChunk } from "ai";
import type { ModelStep } from "@/lib/model/agent-loop";
import { SAMPLING_PREAMBLE, sampleText, samplingInstructions, samplingMessages, samplingResult } from "@/lib/model/sampling";
import { askingServer, startMcpHttpServer } from "../../fixtures/mcp/test-servers";
import type { StatefulHost } from "../../fixtures/mcp/test-servers";

let host: StatefulHost;
beforeAll(async () => {
  host = await startMcpHttpServer(askingServer, { stateful: true });
});
afterAll(async () => {
  await host.close();
});

function connectWith(broker: ServerRequestBroker, inFlight: CallsInFlight = new CallsInFlight()) {
  const config: ServerConfig = { id: "asker", name: "asker", transport: "streamable-http", url: host.url, enabled: true };
  return connectToServer(config, {
    baseUrl: new URL(host.url).origin,
    proxyUrl: "/api/mcp/proxy",
    via: "direct",
    elicit: (c, params, signal) => broker.elicit(c.name, params, signal, inFlight.latest(c.name)),
    sample: (c, params, signal) => broker.sample(c.name, params, signal, inFlight.latest(c.name)),
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
    broker.answerElicitation(pending?.id ?? 0, { action: "accept", content: { name: "Ada" } });
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
      broker.answerElicitation(broker.snapshot()[0]?.id ?? 0, { action });
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

describe("sampling, from the server's request to the person's approved completion", () => {
  it("elicitation then sampling inside one call: both wait for the person, both land on the call's notes", async () => {
    const broker = new ServerRequestBroker();
    const inFlight = new CallsInFlight();
    const connection = await connectWith(broker, inFlight);
    const notes: ServerRequestNote[] = [];
    const end = inFlight.begin("asker", { callId: 3, note: (note) => notes.push(note) });
    const calling = connection.callTool("plan_dinner", {});
    await expect.poll(() => broker.snapshot()[0]?.kind).toBe("elicitation");
    broker.answerElicitation(broker.snapshot()[0]?.id ?? 0, { action: "accept", content: { guest: "Ada" } });
    await expect.poll(() => broker.snapshot()[0]?.kind).toBe("sampling");
    const sampling = broker.snapshot()[0];
    if (sampling?.kind !== "sampling") throw new Error("expected a sampling request");
    expect(sampling.callId).toBe(3);
    expect(samplingMessages(sampling.params)).toEqual([{ role: "user", text: "Write a one-line greeting for Ada." }]);
    expect(sampling.params.systemPrompt).toBe("You write short, warm greetings.");
    broker.answerSampling(sampling.id, { action: "accept", result: samplingResult("Welcome, Ada!", "test-model") });
    const result = await calling;
    end();
    await connection.close();
    expect(result.structuredContent).toEqual({ guest: "Ada", greeting: "Welcome, Ada!", model: "test-model" });
    expect(notes.map((n) => `${n.kind}:${n.state}`)).toEqual(["elicitation:waiting", "elicitation:accept", "sampling:waiting", "sampling:accept"]);
    expect(notes[2]?.message).toBe("Write a one-line greeting for Ada.");
  });

  it("a declined sampling request reaches the server as an error", async () => {
    const broker = new ServerRequestBroker();
    const connection = await connectWith(broker);
    const calling = connection.callTool("plan_dinner", {});
    await expect.poll(() => broker.snapshot()[0]?.kind).toBe("elicitation");
    broker.answerElicitation(broker.snapshot()[0]?.id ?? 0, { action: "accept", content: { guest: "Bob" } });
    await expect.poll(() => broker.snapshot()[0]?.kind).toBe("sampling");
    broker.answerSampling(broker.snapshot()[0]?.id ?? 0, { action: "decline" });
    const result = await calling;
    await connection.close();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("The person declined this sampling request.");
  });

  it("a request for a million tokens is refused before the person is asked", async () => {
    const broker = new ServerRequestBroker();
    const connection = await connectWith(broker);
    const result = await connection.callTool("huge_sample", {});
    await connection.close();
    expect(broker.snapshot()).toEqual([]);
    expect((result.content[0] as { text: string }).text).toMatch(/^refused: .*up to 1000000 tokens; the playground answers sampling requests of at most 32000/);
  });

  it("sampleText reads the model step's text and surfaces its error", async () => {
    const chunks = (parts: UIMessageChunk[]) =>
      new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
    const seen: string[] = [];
    const step: ModelStep = ({ messages }) => {
      seen.push(JSON.stringify(messages.map((m) => [m.role, m.parts])));
      return Promise.resolve(
        chunks([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Hello, " },
          { type: "text-delta", id: "t", delta: "Ada." },
          { type: "text-end", id: "t" },
        ]),
      );
    };
    expect(await sampleText(step, [{ role: "user", text: "Greet Ada" }], new AbortController().signal)).toBe("Hello, Ada.");
    expect(seen[0]).toBe(JSON.stringify([["user", [{ type: "text", text: "Greet Ada" }]]]));
    const failing: ModelStep = () => Promise.resolve(chunks([{ type: "error", errorText: "rate limited" }]));
    await expect(sampleText(failing, [{ role: "user", text: "x" }], new AbortController().signal)).rejects.toThrow("rate limited");
    expect(samplingInstructions("asker", "Be brief.")).toBe(`${SAMPLING_PREAMBLE}\nThe server is "asker".\n\nBe brief.`);
  });

  it("images in a sampling request are named, since only text is sent", () => {
    expect(
      samplingMessages({
        maxTokens: 10,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image", data: "AAAA", mimeType: "image/png" },
            ],
          },
        ],
      }),
    ).toEqual([{ role: "user", text: "What is this?\n[image omitted: the playground sends text only]" }]);
  });
});

describe("a call's notes and its rounds", () => {
  const ask = (message: string): ServerRequestNote => ({ kind: "elicitation", message, state: "waiting" });
  const answer = (message: string): ServerRequestNote => ({ kind: "elicitation", message, state: "accept" });

  it("on 2026-07-28, a question after every earlier one is answered opens the next round; questions sent together share one", () => {
    let notes: ServerRequestNote[] = [];
    for (const note of [
      ask("Your name?"),
      answer("Your name?"),
      ask("Your colour?"),
      ask("Your city?"),
      answer("Your city?"),
      answer("Your colour?"),
      ask("Sure?"),
    ])
      notes = withNote(notes, note, { rounds: true });
    expect(notes.map((n) => [n.message, n.state, n.round])).toEqual([
      ["Your name?", "accept", 1],
      ["Your colour?", "accept", 2],
      ["Your city?", "accept", 2],
      ["Sure?", "waiting", 3],
    ]);
  });

  it("on a 2025 session, answers replace their question and nothing is numbered", () => {
    let notes: ServerRequestNote[] = [];
    for (const note of [ask("A?"), answer("A?"), ask("B?")]) notes = withNote(notes, note, { rounds: false });
    expect(notes).toEqual([answer("A?"), ask("B?")]);
  });
});
