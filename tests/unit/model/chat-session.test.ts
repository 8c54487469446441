/**
 * The page's chat in Node: the same ChatSession and HTTP model step the page creates, its
 * requests handled in-process by the real route handler, the code run by the real sandbox
 * against the real demo servers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { ChatSession, chatBusy, type ChatSessionConfig } from "@/lib/model/chat-session";
import { AppContexts } from "@/lib/playground/app-contexts";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";
import type { ChatRequestExtras } from "@/lib/model/request-schema";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";
import { routeFetch } from "../../fixtures/model/route-fetch";
import { startScriptedOpenAIServer, turn, type ScriptedOpenAIServer, type ScriptStep } from "../../fixtures/model/scripted-openai-server";

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

function configFor(model: ChatRequestExtras["model"], overrides: Partial<ChatSessionConfig> = {}): ChatSessionConfig {
  return {
    modelStep: httpModelStep({ body: () => ({ model, instructions: world.systemPrompt(), mode: "declarations", settings: {} }), fetch: routeFetch }),
    handlers: { runCode: world.handlers.runCode, searchTools: world.handlers.searchTools, awaitApproval: (code) => Promise.resolve({ action: "run", code }) },
    policy: { maxSteps: 10, returnDirectly: false },
    stepMode: false,
    ...overrides,
  };
}

function controller(model: ChatRequestExtras["model"], overrides: Partial<ChatSessionConfig> = {}) {
  const config = configFor(model, overrides);
  return new ChatSession(() => config);
}

const scripted = async (script: ScriptStep[]): Promise<ChatRequestExtras["model"]> => {
  server = await startScriptedOpenAIServer(script);
  return { provider: "openai-compatible", modelId: "m", baseURL: server.baseURL };
};

describe("the chat session (the page's loop) against the route", () => {
  it("answers a demo example end to end: tool call, sandbox, demo server, final answer, inspector", async () => {
    const script = DEMO_SCRIPTS[0]!;
    const c = controller({ provider: "demo", modelId: "code-mode-demo" });
    await c.send(script.prompt);
    const [, reply] = c.snapshot().messages;
    const code = reply?.parts.find((p) => p.type === "tool-execute_code");
    expect(code).toMatchObject({ state: "output-available", output: { ok: true } });
    const value = code?.type === "tool-execute_code" && code.state === "output-available" && code.output.ok ? code.output.value : undefined;
    expect(reply?.parts.findLast((p) => p.type === "text")).toMatchObject({ text: script.summarise(value) });
    expect(c.snapshot().inspector[reply!.id]).toHaveLength(2);
    expect(c.snapshot().error).toBeUndefined();
  });

  it("stops a looping model at max steps and says so", async () => {
    const model = await scripted([turn.code("return 1;"), turn.code("return 2;"), turn.code("return 3;")]);
    const c = controller(model, { policy: { maxSteps: 2, returnDirectly: false } });
    await c.send("loop");
    expect(server!.requests).toHaveLength(2);
    const reply = c.snapshot().messages[1]!;
    expect(c.snapshot().stops[reply.id]).toEqual({ kind: "max-steps", steps: 2 });
  });

  it("returns directly without another model turn", async () => {
    const model = await scripted([turn.code("return { answer: 42 };"), turn.text("never")]);
    const c = controller(model, { policy: { maxSteps: 10, returnDirectly: true } });
    await c.send("direct");
    expect(server!.requests).toHaveLength(1);
    expect(Object.values(c.snapshot().stops)).toEqual([{ kind: "returned-directly", toolCallIds: ["call_0_0"] }]);
  });

  it("shows a provider error, keeps the conversation, and retries without losing completed steps", async () => {
    const model = await scripted([turn.code("return 5;"), turn.status(429), turn.text("Five.")]);
    const c = controller(model);
    await c.send("five");
    expect(c.snapshot().status).toBe("error");
    expect(c.snapshot().error).toMatch(/rate-limiting requests \(HTTP 429\)/);
    expect(c.snapshot().messages[1]?.parts.some((p) => p.type === "tool-execute_code")).toBe(true);
    await c.retry();
    expect(c.snapshot().status).toBe("ready");
    const parts = c.snapshot().messages[1]?.parts ?? [];
    expect(parts.filter((p) => p.type === "tool-execute_code")).toHaveLength(1);
    expect(parts.findLast((p) => p.type === "text")).toMatchObject({ text: "Five." });
  });

  it("stops while the code waits for approval, closing the call and not continuing", async () => {
    const model = await scripted([turn.code("return 1;"), turn.text("never")]);
    let release: (() => void) | undefined;
    const c = controller(model, {
      stepMode: true,
      handlers: {
        ...world.handlers,
        awaitApproval: (code) => new Promise((resolve) => (release = () => resolve({ action: "run", code }))),
      },
    });
    const runsBefore = world.runs.length;
    const sent = c.send("wait");
    for (let i = 0; i < 200 && Object.keys(c.snapshot().activity).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(Object.values(c.snapshot().activity)).toEqual(["approval"]);
    await c.stop();
    await sent;
    release?.();
    await new Promise((r) => setTimeout(r, 50));
    expect(chatBusy(c.snapshot())).toBe(false);
    expect(server!.requests).toHaveLength(1);
    expect(world.runs.length).toBe(runsBefore);
    expect(c.snapshot().messages[1]?.parts.find((p) => p.type === "tool-execute_code")).toMatchObject({
      state: "output-error",
      errorText: expect.stringContaining("Stopped") as string,
    });
  });

  it("restores a shared conversation without sending or running anything, closing unanswered calls", async () => {
    const model = await scripted([turn.text("never")]);
    const c = controller(model);
    const seen: string[] = [];
    c.subscribe(() => seen.push(c.snapshot().status));
    await c.restore([
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [{ type: "step-start" }, { type: "tool-execute_code", toolCallId: "t1", state: "input-available", input: { code: "return 1" } }],
      },
    ]);
    expect(server!.requests).toHaveLength(0);
    expect(seen).toEqual(["ready"]);
    expect(c.snapshot().messages[1]?.parts[1]).toMatchObject({ state: "output-error", errorText: expect.stringContaining("Stopped") as string });
  });

  it("edits the last message: everything after it is replaced by the new answer", async () => {
    const model = await scripted([turn.text("First answer."), turn.text("Second answer.")]);
    const c = controller(model);
    await c.send("one");
    const firstId = c.snapshot().messages[0]!.id;
    await c.editLast("two");
    const messages = c.snapshot().messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[0]).toMatchObject({ id: firstId, parts: [{ type: "text", text: "two" }] });
    expect(messages[1]?.parts.findLast((p) => p.type === "text")).toMatchObject({ text: "Second answer." });
  });

  it("sending while a program waits stops the first turn; the two never interleave", async () => {
    const model = await scripted([turn.code("return 1;"), turn.text("Answer to the second.")]);
    const c = controller(model, {
      stepMode: true,
      handlers: { ...world.handlers, awaitApproval: () => new Promise(() => undefined) },
    });
    const first = c.send("first");
    for (let i = 0; i < 200 && Object.keys(c.snapshot().activity).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await c.send("second");
    await first;
    const messages = c.snapshot().messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1]?.parts.find((p) => p.type === "tool-execute_code")).toMatchObject({ state: "output-error" });
    expect(messages[3]?.parts.findLast((p) => p.type === "text")).toMatchObject({ text: "Answer to the second." });
    expect(c.snapshot()).toMatchObject({ status: "ready", activity: {} });
  });

  it("clear empties the conversation and its records", async () => {
    const c = controller({ provider: "demo", modelId: "code-mode-demo" });
    await c.send(DEMO_SCRIPTS[0]!.prompt);
    expect(Object.keys(c.snapshot().inspector)).toHaveLength(1);
    await c.clear();
    expect(c.snapshot()).toMatchObject({ messages: [], inspector: {}, stops: {}, status: "ready" });
  });
});

describe("a turn sent while the page's servers are still connecting", () => {
  it("waits for them to settle, then builds its first request from what settled", async () => {
    const model = await scripted([turn.text("Done.")]);
    let release!: () => void;
    const settling = new Promise<void>((resolve) => (release = resolve));
    let configReads = 0;
    const base = configFor(model);
    const c = new ChatSession(
      () => (configReads++, base),
      () => settling,
    );
    const sent = c.send("hello");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.snapshot().status).toBe("submitted");
    expect(server!.requests).toHaveLength(0);
    expect(configReads).toBe(0);
    release();
    await sent;
    expect(configReads).toBe(1);
    expect(server!.requests).toHaveLength(1);
    expect(
      c
        .snapshot()
        .messages.at(-1)
        ?.parts.findLast((p) => p.type === "text"),
    ).toMatchObject({ text: "Done." });
  });

  it("is ended by Stop during the wait, with no request made and the message kept", async () => {
    const model = await scripted([turn.text("never")]);
    const base = configFor(model);
    const c = new ChatSession(
      () => base,
      (signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())),
    );
    const sent = c.send("hello");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.snapshot().status).toBe("submitted");
    await c.stop();
    await sent;
    expect(server!.requests).toHaveLength(0);
    expect(c.snapshot().messages[0]?.parts).toEqual([{ type: "text", text: "hello" }]);
    expect(chatBusy(c.snapshot())).toBe(false);
  });

  it("context an MCP App gave goes with the next message as a part of its own, once", async () => {
    const model = await scripted([turn.text("One."), turn.text("Two.")]);
    const contexts = new AppContexts();
    contexts.put("shipping\u0000get_quote", "the app of shipping.get_quote", "postal 26.00 EUR");
    contexts.put("shipping\u0000get_quote", "the app of shipping.get_quote", "postal 26.00 EUR, swiftair 61.00 EUR");
    const base = configFor(model);
    const c = new ChatSession(() => base, undefined, contexts.take);
    await c.send("Which one?");
    expect(c.snapshot().messages[0]?.parts).toEqual([
      { type: "text", text: "Context from the app of shipping.get_quote:\npostal 26.00 EUR, swiftair 61.00 EUR" },
      { type: "text", text: "Which one?" },
    ]);
    expect(JSON.stringify(server!.requests[0])).toContain("postal 26.00 EUR, swiftair 61.00 EUR");
    await c.send("And now?");
    expect(c.snapshot().messages.at(-2)?.parts).toEqual([{ type: "text", text: "And now?" }]);
    expect(contexts.snapshot()).toEqual([]);
  });
});
