/**
 * The browser's loop in Node: the same controller the chat hook uses (AI SDK Chat, client-side
 * tool answers, loop policy), its requests handled in-process by the real route handler, the
 * code run by the real sandbox against the real demo servers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CodeModeChatController, type ChatControllerOptions } from "@/components/chat/chat-controller";
import { handleChatRequest } from "@/lib/model/chat-handler";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";
import type { ChatRequestExtras } from "@/lib/model/request-schema";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";
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

// The route, called in-process: what fetch("/api/chat") reaches in the browser.
const routeFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  handleChatRequest(new Request(new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost:3000"), init), {
    env: {},
    demo: { chunkDelayMs: 0 },
    baseUrlPolicy: () => ({ allowPrivate: true }),
  })) as typeof fetch;

function controller(model: ChatRequestExtras["model"], overrides: Partial<ChatControllerOptions> = {}) {
  const options: ChatControllerOptions = {
    host: { runCode: world.handlers.runCode, searchTools: world.handlers.searchTools, awaitApproval: (code) => Promise.resolve({ action: "run", code }) },
    requestExtras: () => ({ model, instructions: world.systemPrompt(), mode: "declarations", settings: {} }),
    policy: { maxSteps: 10, returnDirectly: false },
    stepMode: false,
    ...overrides,
  };
  return new CodeModeChatController({ current: options }, { fetch: routeFetch });
}

async function settled(c: CodeModeChatController): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await new Promise((r) => setTimeout(r, 10));
    const idle = (c.chat.status === "ready" || c.chat.status === "error") && Object.keys(c.getSnapshot().activity).length === 0;
    // A finished stream may still be followed by the automatic next request: wait until it stays idle.
    if (idle) {
      await new Promise((r) => setTimeout(r, 30));
      if ((c.chat.status === "ready" || c.chat.status === "error") && Object.keys(c.getSnapshot().activity).length === 0) return;
    }
  }
  throw new Error(`the chat did not settle (status ${c.chat.status})`);
}

const scripted = async (script: ScriptStep[]): Promise<ChatRequestExtras["model"]> => {
  server = await startScriptedOpenAIServer(script);
  return { provider: "openai-compatible", modelId: "m", baseURL: server.baseURL };
};

describe("the chat controller (browser loop) against the route", () => {
  it("answers a demo example end to end: tool call, sandbox, demo server, final answer, inspector", async () => {
    const script = DEMO_SCRIPTS[0]!;
    const c = controller({ provider: "demo", modelId: "code-mode-demo" });
    await c.send(script.prompt);
    await settled(c);
    const [, reply] = c.chat.messages;
    const code = reply?.parts.find((p) => p.type === "tool-execute_code");
    expect(code).toMatchObject({ state: "output-available", output: { ok: true } });
    const value = code?.type === "tool-execute_code" && code.state === "output-available" && code.output.ok ? code.output.value : undefined;
    expect(reply?.parts.findLast((p) => p.type === "text")).toMatchObject({ text: script.summarise(value) });
    expect(c.getSnapshot().inspector[reply!.id]).toHaveLength(2);
    expect(c.chat.error).toBeUndefined();
  });

  it("stops a looping model at max steps and says so", async () => {
    const model = await scripted([turn.code("return 1;"), turn.code("return 2;"), turn.code("return 3;")]);
    const c = controller(model, { policy: { maxSteps: 2, returnDirectly: false } });
    await c.send("loop");
    await settled(c);
    expect(server!.requests).toHaveLength(2);
    const reply = c.chat.messages[1]!;
    expect(c.getSnapshot().stops[reply.id]).toEqual({ kind: "max-steps", steps: 2 });
  });

  it("returns directly without another model turn", async () => {
    const model = await scripted([turn.code("return { answer: 42 };"), turn.text("never")]);
    const c = controller(model, { policy: { maxSteps: 10, returnDirectly: true } });
    await c.send("direct");
    await settled(c);
    expect(server!.requests).toHaveLength(1);
    expect(Object.values(c.getSnapshot().stops)).toEqual([{ kind: "returned-directly", toolCallIds: ["call_0_0"] }]);
  });

  it("shows a provider error, keeps the conversation, and retries without losing completed steps", async () => {
    const model = await scripted([turn.code("return 5;"), turn.status(429), turn.text("Five.")]);
    const c = controller(model);
    await c.send("five");
    await settled(c);
    expect(c.chat.status).toBe("error");
    expect(c.chat.error?.message).toMatch(/rate-limiting requests \(HTTP 429\)/);
    expect(c.chat.messages[1]?.parts.some((p) => p.type === "tool-execute_code")).toBe(true);
    await c.retry();
    await settled(c);
    expect(c.chat.status).toBe("ready");
    const parts = c.chat.messages[1]?.parts ?? [];
    expect(parts.filter((p) => p.type === "tool-execute_code")).toHaveLength(1);
    expect(parts.findLast((p) => p.type === "text")).toMatchObject({ text: "Five." });
  });

  it("stops while the code waits for approval, closing the call and not continuing", async () => {
    const model = await scripted([turn.code("return 1;"), turn.text("never")]);
    let release: (() => void) | undefined;
    const c = controller(model, {
      stepMode: true,
      host: {
        ...world.handlers,
        awaitApproval: (code) => new Promise((resolve) => (release = () => resolve({ action: "run", code }))),
      },
    });
    const runsBefore = world.runs.length;
    await c.send("wait");
    for (let i = 0; i < 200 && Object.keys(c.getSnapshot().activity).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(Object.values(c.getSnapshot().activity)).toEqual(["approval"]);
    await c.stop();
    release?.();
    await settled(c);
    expect(server!.requests).toHaveLength(1);
    expect(world.runs.length).toBe(runsBefore);
    expect(c.chat.messages[1]?.parts.find((p) => p.type === "tool-execute_code")).toMatchObject({
      state: "output-error",
      errorText: expect.stringContaining("Stopped") as string,
    });
  });
});
