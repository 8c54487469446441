/** The /api/chat route handlers called directly with Requests; the model is the scripted server. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/chat/route";
import { GET } from "@/app/api/chat/providers/route";
import { handleChatRequest } from "@/lib/model/server/chat-handler";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";
import type { InspectorStep } from "@/lib/model/types";
import { startScriptedOpenAIServer, turn, type ScriptedOpenAIServer } from "../../fixtures/model/scripted-openai-server";
import { readChunks } from "../../fixtures/model/ui-stream";

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** What the app's own page sends with a chat POST. */
const PAGE_HEADERS = { "content-type": "application/json", origin: "http://localhost:3000" };

const userMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "hello" }] };

function chatRequest(body: Record<string, unknown>): Request {
  return new Request("http://localhost:3000/api/chat", { method: "POST", headers: PAGE_HEADERS, body: JSON.stringify(body) });
}

describe("POST /api/chat", () => {
  it("streams a step from an OpenAI-compatible provider, with the inspector record before finish", async () => {
    vi.stubEnv("MODEL_BASE_URL_ALLOW", "127.0.0.1");
    server = await startScriptedOpenAIServer([turn.text("Hel", "lo!")]);
    const response = await POST(
      chatRequest({
        messages: [userMessage],
        model: { provider: "openai-compatible", modelId: "m1", baseURL: server.baseURL },
        instructions: "You are a test.",
        settings: { temperature: 0 },
      }),
      undefined,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const chunks = await readChunks(response);
    expect(chunks.map((c) => c.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "finish-step",
      "data-inspector",
      "finish",
    ]);
    expect(
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Hello!");
    const inspector = chunks.find((c) => c.type === "data-inspector") as { data: InspectorStep; transient?: boolean };
    expect(inspector.transient).toBe(true);
    expect(inspector.data).toMatchObject({
      request: { system: "You are a test.", settings: { temperature: 0 } },
      response: { text: "Hello!", finishReason: "stop" },
      usage: { inputTokens: 123, outputTokens: 45 },
    });
    expect(server.requests[0]?.body.messages?.[0]).toEqual({ role: "system", content: "You are a test." });
  });

  it("continues the trailing assistant message (same message id) after tool results", async () => {
    vi.stubEnv("MODEL_BASE_URL_ALLOW", "127.0.0.1");
    server = await startScriptedOpenAIServer([turn.text("The value is 3.")]);
    const assistant = {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "tool-execute_code", toolCallId: "c1", state: "output-available", input: { code: "return 3" }, output: { ok: true, value: 3, logs: [] } },
      ],
    };
    const chunks = await readChunks(
      await POST(
        chatRequest({ messages: [userMessage, assistant], model: { provider: "openai-compatible", modelId: "m", baseURL: server.baseURL }, instructions: "" }),
        undefined,
      ),
    );
    expect(chunks[0]).toEqual({ type: "start", messageId: "a1" });
    const sent = server.requests[0]?.body.messages ?? [];
    expect(sent.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: "c1", content: JSON.stringify({ ok: true, value: 3, logs: [] }) });
  });

  it("puts a provider error in the stream, after the inspector record, without the key", async () => {
    vi.stubEnv("MODEL_BASE_URL_ALLOW", "127.0.0.1");
    server = await startScriptedOpenAIServer([turn.status(401, { error: { message: "Incorrect API key provided: sk-browser-secret-1" } })]);
    const logged = (["log", "info", "warn", "error", "debug"] as const).map((level) => vi.spyOn(console, level));
    const response = await POST(
      chatRequest({
        messages: [userMessage],
        model: { provider: "openai-compatible", modelId: "m", baseURL: server.baseURL, apiKey: "sk-browser-secret-1" },
        instructions: "",
      }),
      undefined,
    );
    expect(response.status).toBe(200);
    const chunks = await readChunks(response);
    const types = chunks.map((c) => c.type);
    expect(types.slice(-2)).toEqual(["data-inspector", "error"]);
    const error = chunks.at(-1) as { errorText: string };
    expect(error.errorText).toMatch(/rejected the API key \(HTTP 401\)/);
    expect(JSON.stringify(chunks)).not.toContain("sk-browser-secret-1");
    // Nothing about the request (it carries the key) went to the server's logs.
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it("runs the offline demo model: an example prompt gets its execute_code call", async () => {
    const script = DEMO_SCRIPTS[0]!;
    const response = await handleChatRequest(
      chatRequest({
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: script.prompt }] }],
        model: { provider: "demo", modelId: "code-mode-demo" },
        instructions: "declare namespace shipping {}",
      }),
      { env: {}, demo: { chunkDelayMs: 0 } },
    );
    const chunks = await readChunks(response);
    const call = chunks.find((c) => c.type === "tool-input-available") as { toolName: string; input: { code: string } };
    expect(call).toMatchObject({ toolName: "execute_code", input: { code: script.code } });
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "tool-calls" });
  });

  it("a classic tool schema nested too deep is a 400 naming where, not a 500 (any depth)", async () => {
    for (const depth of [800, 1_600, 20_000]) {
      // Written as text: JSON.stringify itself runs out of stack on such an object.
      const schema = `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}`;
      const body = `{"messages":${JSON.stringify([userMessage])},"model":{"provider":"demo","modelId":"code-mode-demo"},"instructions":"","toolMode":"classic","classicTools":[{"name":"deep","description":"","inputSchema":${schema}}]}`;
      const response = await POST(new Request("http://localhost:3000/api/chat", { method: "POST", headers: PAGE_HEADERS, body }), undefined);
      expect(response.status, `depth ${depth}`).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: "bad_request:chat", message: expect.stringContaining("classicTools.0.inputSchema") as string },
      });
    }
  });

  it("refuses bad bodies, missing keys and private base URLs with JSON errors", async () => {
    const bad = await POST(new Request("http://localhost:3000/api/chat", { method: "POST", headers: PAGE_HEADERS, body: "{" }), undefined);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "bad_request:chat" } });

    const invalid = await POST(chatRequest({ messages: [], model: { provider: "openai", modelId: "x" }, instructions: "" }), undefined);
    expect(await invalid.json()).toMatchObject({ error: { code: "bad_request:chat", message: expect.stringContaining("messages") as string } });

    vi.stubEnv("OPENAI_API_KEY", "");
    const noKey = await handleChatRequest(chatRequest({ messages: [userMessage], model: { provider: "openai", modelId: "gpt-5-mini" }, instructions: "" }), {
      env: {},
    });
    expect(noKey.status).toBe(400);
    expect(await noKey.json()).toMatchObject({ error: { code: "missing_key:chat", message: expect.stringContaining("OPENAI_API_KEY") as string } });

    // Not allow-listed, and nothing here listens on loopback at :3000, so a private target is refused.
    const refused = await handleChatRequest(
      chatRequest({ messages: [userMessage], model: { provider: "openai-compatible", modelId: "m", baseURL: "http://127.0.0.1:11434/v1" }, instructions: "" }),
      { env: {} },
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "refused:chat", message: expect.stringContaining("MODEL_BASE_URL_ALLOW") as string } });

    const metadata = await handleChatRequest(
      chatRequest({ messages: [userMessage], model: { provider: "openai-compatible", modelId: "m", baseURL: "http://169.254.169.254/v1" }, instructions: "" }),
      {
        env: {},
        baseUrlPolicy: () => ({ allowPrivate: true }),
      },
    );
    expect(metadata.status).toBe(403);
  });
});

describe("GET /api/chat/providers", () => {
  const providers = async () => {
    const response = await GET(new Request("http://localhost:3000/api/chat/providers"), undefined);
    const text = await response.text();
    expect(text).not.toContain("sk-server-secret-value");
    return JSON.parse(text) as { serverKeys: Record<string, boolean>; access: string };
  };

  it("says which providers have a server key, as booleans only, and that a secret unlocks them when hosted", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-server-secret-value");
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("CMP_ACCESS_SECRET", "operator-secret-0123456789");
    // Nothing listens on loopback at :3000 in this process: hosted mode.
    const { serverKeys, access } = await providers();
    expect(access).toBe("secret");
    expect(serverKeys).toMatchObject({ demo: true, openai: true, anthropic: false, "openai-compatible": false });
    expect(Object.values(serverKeys).every((v) => typeof v === "boolean")).toBe(true);
  });

  it("hosted without an access secret: the server's keys are off for everyone (finding 3)", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-server-secret-value");
    vi.stubEnv("CMP_ACCESS_SECRET", "");
    expect(await providers()).toMatchObject({ access: "off", serverKeys: { openai: false, demo: true } });
  });
});

describe("hosted mode spends the server's keys only behind the access secret (finding 3)", () => {
  const ask = (access: string | undefined, env: Record<string, string>) => {
    const providerFetch = vi.fn(() => Promise.resolve(Response.json({ error: { message: "upstream reached" } }, { status: 401 })));
    const body = { messages: [userMessage], model: { provider: "openai", modelId: "gpt-5-mini" }, instructions: "", ...(access ? { access } : {}) };
    return { providerFetch, response: handleChatRequest(chatRequest(body), { env, fetch: providerFetch }) };
  };
  const env = { OPENAI_API_KEY: "sk-server-secret-value", CMP_ACCESS_SECRET: "operator-secret-0123456789" };

  it("without the secret (or a wrong one) the server key is not used", async () => {
    for (const access of [undefined, "guess", "operator-secret-012345678"]) {
      const { response, providerFetch } = ask(access, env);
      const refused = await response;
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: "missing_key:chat" } });
      expect(providerFetch).not.toHaveBeenCalled();
    }
    const { response, providerFetch } = ask(undefined, { OPENAI_API_KEY: "sk-server-secret-value" });
    expect((await response).status).toBe(400);
    expect(providerFetch).not.toHaveBeenCalled();
  });

  it("with the secret the server key reaches the provider", async () => {
    const { response, providerFetch } = ask("operator-secret-0123456789", env);
    const chunks = await readChunks(await response);
    expect(providerFetch).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(chunks)).not.toContain("sk-server-secret-value");
  });
});
