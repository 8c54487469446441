/**
 * The client-side tool loop end to end in Node: the real @ai-sdk/openai-compatible provider
 * talking to a scripted OpenAI-style server over HTTP, the real QuickJS sandbox, and the real
 * demo MCP servers over loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PromptMode } from "@/lib/codemode";
import { runAgentLoop, type AgentLoopOptions } from "@/lib/model/agent-loop";
import { directModelStep } from "@/lib/model/chat-stream";
import { runHeadlessAgent } from "@/lib/model/node/headless-agent";
import { resolveModel } from "@/lib/model/server/provider-registry";
import type { CodeModeUIMessage } from "@/lib/model/types";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";
import { startScriptedOpenAIServer, toolResultsIn, turn, type ScriptedOpenAIServer, type ScriptStep } from "../../fixtures/model/scripted-openai-server";

let world: DemoWorld;
let server: ScriptedOpenAIServer | undefined;
beforeAll(async () => {
  world = await startDemoWorld(["shipping", "lab"]);
});
afterAll(() => world.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const QUOTE = `const [a, b] = await Promise.all([
  shipping.get_quote({ carrier: "postal", origin: "DE", destination: "US", weightKg: 2 }),
  shipping.get_quote({ carrier: "swiftair", origin: "DE", destination: "US", weightKg: 2 }),
]);
console.log("quoted", a.carrier, b.carrier);
return { postal: a.price, swiftair: b.price };`;

const user = (text: string): CodeModeUIMessage => ({ id: "u1", role: "user", parts: [{ type: "text", text }] });

type LoopOverrides = Partial<Omit<AgentLoopOptions, "modelStep">> & { mode?: PromptMode; instructions?: string };

async function loop(script: ScriptStep[], overrides: LoopOverrides = {}) {
  const { mode = "declarations", instructions = world.systemPrompt(), ...rest } = overrides;
  server = await startScriptedOpenAIServer(script);
  const model = resolveModel(
    { provider: "openai-compatible", modelId: "scripted-model", baseURL: server.baseURL, apiKey: "sk-test-key-123456" },
    { env: {}, baseUrlPolicy: { allowPrivate: true } },
  );
  return runAgentLoop({
    modelStep: directModelStep({ model, instructions, mode, settings: { temperature: 0.2, maxOutputTokens: 500 } }),
    messages: [user("Compare two carriers")],
    handlers: world.handlers,
    policy: { maxSteps: 10, returnDirectly: false },
    ...rest,
  });
}

const texts = (m: CodeModeUIMessage | undefined) => (m?.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : []));

describe("runAgentLoop with a scripted OpenAI-compatible model", () => {
  it("runs a full loop: code → sandbox → demo MCP server → result → final answer", async () => {
    const result = await loop([
      turn.code(QUOTE),
      (request) => {
        const [output] = toolResultsIn(request) as Array<{ ok: boolean; value: { postal: number; swiftair: number } }>;
        return turn.text("Postal costs ", `${output?.value.postal}, SwiftAir ${output?.value.swiftair}.`);
      },
    ]);
    expect(result.stop).toEqual({ kind: "done" });
    const run = world.runs.at(-1)?.result;
    expect(run).toMatchObject({ ok: true, value: { postal: expect.any(Number) as number, swiftair: expect.any(Number) as number } });
    const value = run?.ok ? (run.value as { postal: number; swiftair: number }) : undefined;
    expect(texts(result.messages.at(-1)).join("")).toBe(`Postal costs ${value?.postal}, SwiftAir ${value?.swiftair}.`);

    // What the provider was sent: system prompt, the one tool, settings, the key, then the run's output.
    const [first, second] = server!.requests;
    expect(first?.authorization).toBe("Bearer sk-test-key-123456");
    expect(first?.body).toMatchObject({ model: "scripted-model", temperature: 0.2, max_tokens: 500, stream: true });
    expect(first?.body.messages?.[0]).toEqual({ role: "system", content: world.systemPrompt() });
    expect(first?.body.tools?.map((t) => t.function.name)).toEqual(["execute_code"]);
    expect(toolResultsIn(second!)).toEqual([{ ok: true, value, logs: ["quoted postal swiftair"] }]);

    // The inspector saw both calls with the provider's usage.
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]).toMatchObject({ provider: "openai-compatible.chat", modelId: "scripted-model", usage: { inputTokens: 123, outputTokens: 45 } });
    expect(result.steps[0]?.request.system).toBe(world.systemPrompt());
    expect(result.steps[0]?.response.toolCalls[0]).toMatchObject({ toolName: "execute_code", input: JSON.stringify({ code: QUOTE }) });
    expect(result.steps[0]?.request.body).toMatchObject({ model: "scripted-model" });
    expect(result.steps[1]?.response).toMatchObject({ finishReason: "stop" });
  });

  it("gives the model the typed error when its code fails, and it retries", async () => {
    const result = await loop([
      turn.code("const q = await shipping.get_quote({ carrier: 'nope', origin: 'DE', destination: 'US', weightKg: 2 });\nreturn q;"),
      (request) => {
        const [output] = toolResultsIn(request) as Array<{ ok: boolean; error?: { kind: string } }>;
        return output?.ok === false ? turn.code(QUOTE) : turn.text("unexpected success");
      },
      turn.text("Fixed it."),
    ]);
    expect(result.stop).toEqual({ kind: "done" });
    const seen = toolResultsIn(server!.requests[1]!)[0];
    expect(seen).toMatchObject({ ok: false, error: { kind: "tool", message: expect.stringMatching(/carrier/i) as string }, logs: [] });
    expect(toolResultsIn(server!.requests[2]!)[1]).toMatchObject({ ok: true });
    expect(texts(result.messages.at(-1)).at(-1)).toBe("Fixed it.");
  });

  it("stops a looping model at max steps", async () => {
    const again = turn.code("return 1;");
    const result = await loop([again, again, again, again], { policy: { maxSteps: 3, returnDirectly: false } });
    expect(result.stop).toEqual({ kind: "max-steps", steps: 3 });
    expect(server!.requests).toHaveLength(3);
    expect(server!.remaining()).toBe(1);
    // The conversation keeps every call and its result.
    const parts = result.messages.at(-1)?.parts.filter((p) => p.type === "tool-execute_code") ?? [];
    expect(parts.map((p) => p.type === "tool-execute_code" && p.state)).toEqual(["output-available", "output-available", "output-available"]);
  });

  it("searches, then runs code, in search mode", async () => {
    const result = await loop(
      [
        turn.search("delivery estimate", 3),
        (request) => {
          const [found] = toolResultsIn(request) as Array<{ declarations: string }>;
          return found?.declarations.includes("estimate_delivery")
            ? turn.code("return await shipping.estimate_delivery({ carrier: 'postal', origin: 'DE', destination: 'FR' });")
            : turn.text("search found nothing");
        },
        turn.text("Two to four days."),
      ],
      { mode: "search", instructions: world.systemPrompt("search") },
    );
    expect(result.stop).toEqual({ kind: "done" });
    expect(world.searches.at(-1)).toEqual({ query: "delivery estimate", limit: 3 });
    expect(server!.requests[0]?.body.tools?.map((t) => t.function.name).sort()).toEqual(["execute_code", "search_tools"]);
    expect(toolResultsIn(server!.requests[2]!)[1]).toMatchObject({ ok: true, value: { carrier: "postal", zone: "regional" } });
  });

  it("answers malformed tool-call JSON with an error the model can act on", async () => {
    const result = await loop([turn.malformed('{"code": "return 1'), turn.code("return 2;"), turn.text("done")]);
    expect(result.stop).toEqual({ kind: "done" });
    const firstCall = result.messages.at(-1)?.parts.find((p) => p.type === "tool-execute_code");
    // The raw argument text stays as the call's input, so the card can show what the model sent.
    expect(firstCall).toMatchObject({ state: "output-error", input: '{"code": "return 1', errorText: expect.stringMatching(/JSON parsing failed/) as string });
    const tool = server!.requests[1]?.body.messages?.find((m) => m.role === "tool");
    expect(JSON.stringify(tool?.content)).toMatch(/json|parse|input/i);
    expect(toolResultsIn(server!.requests[2]!)[1]).toMatchObject({ ok: true, value: 2 });
  });

  it("a value over the result budget reaches the model cut, with a note saying how to get the rest", async () => {
    const result = await loop([turn.code("return Array.from({ length: 5000 }, (_, i) => ({ i, s: 'abcdefghij' }));"), turn.text("ok")], {
      resultBudgetTokens: 500,
    });
    expect(result.stop).toEqual({ kind: "done" });
    const [seen] = toolResultsIn(server!.requests[1]!) as Array<{ ok: boolean; value: unknown[]; truncated: { note: string; tokens: number } }>;
    expect(seen?.ok).toBe(true);
    expect(seen?.truncated.note).toMatch(/over the 500-token budget/);
    expect(seen?.value.at(-1)).toMatch(/^… \d+ more items$/);
    expect(JSON.stringify(seen?.value).length / 4).toBeLessThanOrEqual(500);
    // The run itself kept the whole value (the Output panel and the timeline show it).
    expect((world.runs.at(-1)?.result as { value: unknown[] }).value).toHaveLength(5000);
  });

  it("returns the value directly, without another model turn, when asked", async () => {
    const result = await loop([turn.code("return { answer: 42 };"), turn.text("never sent")], { policy: { maxSteps: 10, returnDirectly: true } });
    expect(result.stop).toMatchObject({ kind: "returned-directly", toolCallIds: ["call_0_0"] });
    expect(server!.requests).toHaveLength(1);
  });

  it("in step mode, asks before running and passes on a skip or an edit", async () => {
    const decisions = [{ action: "skip", message: "Not now." } as const, { action: "run", code: "return 'edited';" } as const];
    const asked: string[] = [];
    const result = await loop([turn.code("return 'original';"), turn.code("return 'original';"), turn.text("ok")], {
      stepMode: true,
      handlers: { ...world.handlers, awaitApproval: (code) => (asked.push(code), Promise.resolve(decisions[asked.length - 1]!)) },
    });
    expect(result.stop).toEqual({ kind: "done" });
    expect(asked).toEqual(["return 'original';", "return 'original';"]);
    expect(toolResultsIn(server!.requests[1]!)).toEqual([{ ok: false, skipped: true, message: "Not now." }]);
    expect(toolResultsIn(server!.requests[2]!)[1]).toEqual({ ok: true, value: "edited", logs: [], editedCode: "return 'edited';" });
  });

  for (const [status, pattern] of [
    [401, /rejected the API key \(HTTP 401\)/],
    [429, /rate-limiting requests \(HTTP 429\)/],
    [500, /server error \(HTTP 500\)/],
  ] as const) {
    it(`reports HTTP ${status} from the provider clearly, keeping the conversation`, async () => {
      const result = await loop([turn.status(status, { error: { message: `upstream says no; key sk-test-key-123456` } })]);
      expect(result.stop).toMatchObject({ kind: "error", message: expect.stringMatching(pattern) as string });
      const message = (result.stop as { message: string }).message;
      expect(message).toContain("upstream says no");
      expect(message).not.toContain("sk-test-key-123456");
      expect(result.messages[0]).toEqual(user("Compare two carriers"));
      expect(result.steps[0]?.response.error).toBe(message);
    });
  }

  it("reports an unreachable endpoint", async () => {
    server = await startScriptedOpenAIServer([]);
    const baseURL = server.baseURL;
    await server.close();
    server = undefined;
    const model = resolveModel({ provider: "openai-compatible", modelId: "m", baseURL }, { env: {}, baseUrlPolicy: { allowPrivate: true } });
    const result = await runAgentLoop({
      modelStep: directModelStep({ model, instructions: "x", mode: "declarations" }),
      messages: [user("hi")],
      handlers: world.handlers,
      policy: { maxSteps: 3, returnDirectly: false },
    });
    expect(result.stop).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^Could not reach the OpenAI-compatible server at http:\/\/127\.0\.0\.1/) as string,
    });
  });

  describe("classic mode (the same loop)", () => {
    it("makes one request per round of tool calls, with every result in the context; code mode needs two requests for the same calls", async () => {
      server = await startScriptedOpenAIServer([
        turn.calls(
          { name: "shipping__get_quote", args: { carrier: "postal", origin: "DE", destination: "US", weightKg: 2 } },
          { name: "shipping__get_quote", args: { carrier: "swiftair", origin: "DE", destination: "US", weightKg: 2 } },
        ),
        turn.calls({ name: "shipping__estimate_delivery", args: { carrier: "postal", origin: "DE", destination: "US" } }),
        turn.text("Postal is cheaper."),
      ]);
      const model = resolveModel({ provider: "openai-compatible", modelId: "m", baseURL: server.baseURL }, { env: {}, baseUrlPolicy: { allowPrivate: true } });
      const callsBefore = world.world.calls.length;
      const result = await runHeadlessAgent({ world: world.world, model, prompt: "Compare two carriers", toolMode: "classic" });
      expect(result.stop).toEqual({ kind: "done" });
      expect(server.requests).toHaveLength(3);
      // Every MCP tool was offered as an ordinary tool, and no execute_code.
      const offered = server.requests[0]?.body.tools?.map((t) => t.function.name) ?? [];
      expect(offered).toContain("shipping__get_quote");
      expect(offered).not.toContain("execute_code");
      // Round 1's two results are in request 2; request 3 holds all three.
      const round1 = toolResultsIn(server.requests[1]!) as Array<{ carrier: string; price: number }>;
      expect(round1.map((r) => r.carrier)).toEqual(["postal", "swiftair"]);
      expect(toolResultsIn(server.requests[2]!)).toHaveLength(3);
      // The calls went through the host functions (validated, recorded) like a program's.
      expect(world.world.calls.slice(callsBefore).map((c) => c.tool)).toEqual(["get_quote", "get_quote", "estimate_delivery"]);

      const codeServer = await startScriptedOpenAIServer([turn.code(QUOTE), turn.text("done")]);
      const codeModel = resolveModel(
        { provider: "openai-compatible", modelId: "m", baseURL: codeServer.baseURL },
        { env: {}, baseUrlPolicy: { allowPrivate: true } },
      );
      const code = await runHeadlessAgent({ world: world.world, model: codeModel, prompt: "Compare two carriers" });
      expect(code.stop).toEqual({ kind: "done" });
      expect(codeServer.requests).toHaveLength(2);
      await codeServer.close();
    });

    it("answers a call to a tool that does not exist with an error the model can act on", async () => {
      server = await startScriptedOpenAIServer([turn.calls({ name: "shipping__teleport", args: {} }), turn.text("Sorry.")]);
      const model = resolveModel({ provider: "openai-compatible", modelId: "m", baseURL: server.baseURL }, { env: {}, baseUrlPolicy: { allowPrivate: true } });
      const result = await runHeadlessAgent({ world: world.world, model, prompt: "Teleport", toolMode: "classic" });
      expect(result.stop).toEqual({ kind: "done" });
      // The AI SDK's own NoSuchToolError, as the tool's result: it names the tools that exist.
      expect(JSON.stringify(server.requests[1]?.body.messages?.find((m) => m.role === "tool")?.content)).toMatch(
        /unavailable tool 'shipping__teleport'.*shipping__get_quote/,
      );
    });

    it("classic with tool search offers search_tools alone, then the tools each search loaded, and calls them through the host", async () => {
      server = await startScriptedOpenAIServer([
        turn.calls({ name: "search_tools", args: { query: "shipping quote", limit: 2 } }),
        turn.calls({ name: "shipping__get_quote", args: { carrier: "postal", origin: "DE", destination: "US", weightKg: 2 } }),
        turn.text("Postal costs that much."),
      ]);
      const model = resolveModel({ provider: "openai-compatible", modelId: "m", baseURL: server.baseURL }, { env: {}, baseUrlPolicy: { allowPrivate: true } });
      const callsBefore = world.world.calls.length;
      const result = await runHeadlessAgent({ world: world.world, model, prompt: "Quote postal", toolMode: "classic-search" });
      expect(result.stop).toEqual({ kind: "done" });
      const offered = (n: number) => server!.requests[n]?.body.tools?.map((t) => t.function.name) ?? [];
      expect(offered(0)).toEqual(["search_tools"]);
      expect(server.requests[0]?.body.messages?.[0]).toEqual({ role: "system", content: world.world.catalog.classicSearchPrompt });
      // The search's matches were loaded, and nothing else.
      const search = result.messages.at(-1)?.parts.find((p) => p.type === "tool-search_tools");
      const loaded = (search as { output?: { tools?: string[] } } | undefined)?.output?.tools ?? [];
      expect(loaded).toContain("shipping__get_quote");
      expect(loaded.length).toBeLessThanOrEqual(2);
      expect(offered(1).sort()).toEqual(["search_tools", ...loaded].sort());
      expect(offered(2).sort()).toEqual(["search_tools", ...loaded].sort());
      expect(world.world.calls.slice(callsBefore).map((c) => c.tool)).toEqual(["get_quote"]);
      expect(result.steps[0]?.request.form).toEqual({ mode: "search", why: "classic with tool search: tool definitions load when a search finds them" });
    });

    it("a tool error reaches the model as that call's error; the other calls of the round still answer", async () => {
      server = await startScriptedOpenAIServer([
        turn.calls(
          { name: "shipping__get_quote", args: { carrier: "nope", origin: "DE", destination: "US", weightKg: 2 } },
          { name: "shipping__list_carriers", args: {} },
        ),
        turn.text("ok"),
      ]);
      const model = resolveModel({ provider: "openai-compatible", modelId: "m", baseURL: server.baseURL }, { env: {}, baseUrlPolicy: { allowPrivate: true } });
      const result = await runHeadlessAgent({ world: world.world, model, prompt: "Quote", toolMode: "classic" });
      const [quote, carriers] = result.messages.at(-1)?.parts.filter((p) => p.type.startsWith("tool-")) ?? [];
      expect(quote).toMatchObject({ state: "output-error", errorText: expect.stringMatching(/carrier/i) as string });
      expect(carriers).toMatchObject({ state: "output-available", output: { carriers: expect.any(Array) as unknown[] } });
    });
  });
});
